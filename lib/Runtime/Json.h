// Json.h - a small JSON reader for manifest.json (the runtime links no LLVM).
#ifndef PADDLEMLIR_LIB_RUNTIME_JSON_H
#define PADDLEMLIR_LIB_RUNTIME_JSON_H

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pdrt::json {
struct Value {
  enum Kind { Null, Bool, Number, String, Array, Object } kind = Null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<Value> arr;
  std::map<std::string, Value> obj;

  const Value *get(const std::string &key) const {
    auto it = obj.find(key);
    return kind == Object && it != obj.end() ? &it->second : nullptr;
  }
};

/// Parses `text`; on failure returns false and sets `error` (with the offset).
bool parse(const std::string &text, Value &out, std::string &error);
} // namespace pdrt::json

#endif
