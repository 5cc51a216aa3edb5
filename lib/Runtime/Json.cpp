// Json.cpp - a small JSON reader for manifest.json.
#include "Json.h"

#include <cstdlib>

namespace pdrt::json {
namespace {
struct Parser {
  const std::string &s;
  size_t i = 0;
  std::string error;

  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r'))
      ++i;
  }
  bool fail(const std::string &msg) {
    if (error.empty())
      error = msg + " at byte " + std::to_string(i);
    return false;
  }
  bool literal(const char *word) {
    size_t n = std::char_traits<char>::length(word);
    if (s.compare(i, n, word) != 0)
      return fail("unexpected token");
    i += n;
    return true;
  }
  bool string(std::string &out) {
    if (i >= s.size() || s[i] != '"')
      return fail("expected a string");
    ++i;
    while (i < s.size() && s[i] != '"') {
      char c = s[i++];
      if (c == '\\') {
        if (i >= s.size())
          return fail("truncated escape");
        char e = s[i++];
        switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u':
          if (i + 4 > s.size())
            return fail("truncated \\u escape");
          out += static_cast<char>(std::strtol(s.substr(i, 4).c_str(), nullptr, 16) & 0x7f);
          i += 4;
          break;
        default:
          out += e;
        }
      } else {
        out += c;
      }
    }
    if (i >= s.size())
      return fail("unterminated string");
    ++i;
    return true;
  }
  bool value(Value &v, int depth) {
    if (depth > 64)
      return fail("nesting too deep");
    ws();
    if (i >= s.size())
      return fail("unexpected end");
    char c = s[i];
    if (c == '{') {
      v.kind = Value::Object;
      ++i;
      ws();
      if (i < s.size() && s[i] == '}') {
        ++i;
        return true;
      }
      for (;;) {
        ws();
        std::string key;
        if (!string(key))
          return false;
        ws();
        if (i >= s.size() || s[i] != ':')
          return fail("expected ':'");
        ++i;
        if (!value(v.obj[key], depth + 1))
          return false;
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == '}') {
          ++i;
          return true;
        }
        return fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.kind = Value::Array;
      ++i;
      ws();
      if (i < s.size() && s[i] == ']') {
        ++i;
        return true;
      }
      for (;;) {
        v.arr.emplace_back();
        if (!value(v.arr.back(), depth + 1))
          return false;
        ws();
        if (i < s.size() && s[i] == ',') {
          ++i;
          continue;
        }
        if (i < s.size() && s[i] == ']') {
          ++i;
          return true;
        }
        return fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v.kind = Value::String;
      return string(v.str);
    }
    if (c == 't' || c == 'f') {
      v.kind = Value::Bool;
      v.b = c == 't';
      return literal(v.b ? "true" : "false");
    }
    if (c == 'n') {
      v.kind = Value::Null;
      return literal("null");
    }
    char *end = nullptr;
    v.num = std::strtod(s.c_str() + i, &end);
    if (end == s.c_str() + i)
      return fail("unexpected character");
    v.kind = Value::Number;
    i = end - s.c_str();
    return true;
  }
};
} // namespace

bool parse(const std::string &text, Value &out, std::string &error) {
  Parser p{text};
  if (!p.value(out, 0)) {
    error = p.error;
    return false;
  }
  p.ws();
  if (p.i != text.size()) {
    error = "trailing characters at byte " + std::to_string(p.i);
    return false;
  }
  return true;
}
} // namespace pdrt::json
