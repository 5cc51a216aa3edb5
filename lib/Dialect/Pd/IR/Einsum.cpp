//===- Einsum.cpp - einsum equation parsing -------------------------------===//

#include "PaddleMLIR/Dialect/Pd/IR/Einsum.h"

#include "llvm/ADT/StringExtras.h"

#include <map>

using namespace mlir;

namespace {
/// One term of the equation: letters before and after an optional "...".
struct Term {
  std::string before, after;
  bool ellipsis = false;
};

bool parseTerm(StringRef s, Term &t) {
  size_t dots = s.find("...");
  t.ellipsis = dots != StringRef::npos;
  t.before = (t.ellipsis ? s.take_front(dots) : s).str();
  t.after = t.ellipsis ? s.drop_front(dots + 3).str() : "";
  return llvm::all_of(t.before + t.after, [](char c) { return llvm::isAlpha(c); });
}
} // namespace

std::optional<pd::EinsumSpec>
pd::parseEinsum(StringRef equation, ArrayRef<RankedTensorType> operands, std::string &error) {
  std::string eq;
  for (char c : equation)
    if (c != ' ')
      eq.push_back(c);
  StringRef lhs = eq, rhs;
  bool explicitOut = false;
  if (size_t arrow = lhs.find("->"); arrow != StringRef::npos) {
    rhs = lhs.drop_front(arrow + 2);
    lhs = lhs.take_front(arrow);
    explicitOut = true;
  }
  SmallVector<StringRef> parts;
  lhs.split(parts, ',');
  if (parts.size() != operands.size()) {
    error = "the equation has " + std::to_string(parts.size()) + " operand terms for " +
            std::to_string(operands.size()) + " operands";
    return std::nullopt;
  }
  SmallVector<Term> terms(parts.size());
  int64_t ellRank = 0;
  std::map<char, int> count;
  for (auto [i, p] : llvm::enumerate(parts)) {
    if (!parseTerm(p, terms[i])) {
      error = "term '" + p.str() + "' is not letters with at most one '...'";
      return std::nullopt;
    }
    int64_t letters = terms[i].before.size() + terms[i].after.size();
    int64_t rank = operands[i].getRank();
    if (terms[i].ellipsis ? letters > rank : letters != rank) {
      error = "term '" + p.str() + "' does not match operand " + std::to_string(i) + " of rank " +
              std::to_string(rank);
      return std::nullopt;
    }
    if (terms[i].ellipsis)
      ellRank = std::max(ellRank, rank - letters);
    for (char c : terms[i].before + terms[i].after)
      ++count[c];
  }
  Term out;
  if (explicitOut) {
    if (!parseTerm(rhs, out)) {
      error = "the result term '" + rhs.str() + "' is not letters with at most one '...'";
      return std::nullopt;
    }
    for (char c : out.before + out.after)
      if (!count.count(c)) {
        error = std::string("result letter '") + c + "' appears in no operand";
        return std::nullopt;
      }
  } else {
    // numpy's implicit result: "..." then the letters used once, sorted.
    out.ellipsis = ellRank > 0;
    for (auto [c, n] : count)
      if (n == 1)
        out.after.push_back(c);
  }
  EinsumSpec spec;
  // Loop numbering: result dims first ("..." where the result has it).
  std::map<char, int64_t> letterLoop;
  SmallVector<int64_t> ellLoops(ellRank, -1);
  auto addLoop = [&]() {
    spec.loopSizes.push_back(ShapedType::kDynamic);
    spec.loopSource.push_back({-1, -1});
    return spec.numLoops++;
  };
  SmallVector<int64_t> resultLoops;
  for (char c : out.before)
    resultLoops.push_back(letterLoop.count(c) ? letterLoop[c] : letterLoop[c] = addLoop());
  if (out.ellipsis)
    for (int64_t &l : ellLoops)
      resultLoops.push_back(l = addLoop());
  for (char c : out.after)
    resultLoops.push_back(letterLoop.count(c) ? letterLoop[c] : letterLoop[c] = addLoop());
  spec.numParallel = spec.numLoops;
  for (int64_t &l : ellLoops)
    if (l < 0)
      l = addLoop();
  for (const Term &t : terms)
    for (char c : t.before + t.after)
      if (!letterLoop.count(c))
        letterLoop[c] = addLoop();
  // Operand dims -> loops; sizes from the operands (a size-1 "..." dim
  // broadcasts against a larger one).
  for (auto [i, t] : llvm::enumerate(terms)) {
    RankedTensorType type = operands[i];
    int64_t n = type.getRank() - (int64_t)(t.before.size() + t.after.size());
    SmallVector<int64_t> loops;
    for (char c : t.before)
      loops.push_back(letterLoop[c]);
    for (int64_t k = 0; k < n; ++k)
      loops.push_back(ellLoops[ellRank - n + k]);
    for (char c : t.after)
      loops.push_back(letterLoop[c]);
    for (auto [d, l] : llvm::enumerate(loops)) {
      int64_t size = type.getDimSize(d);
      int64_t &known = spec.loopSizes[l];
      if (ShapedType::isDynamic(size))
        continue;
      if (!ShapedType::isDynamic(known) && known != size && known != 1 && size != 1) {
        error = "operand " + std::to_string(i) + " dim " + std::to_string(d) + " has size " +
                std::to_string(size) + " where another operand has " + std::to_string(known);
        return std::nullopt;
      }
      if (ShapedType::isDynamic(known) || known == 1) {
        known = size;
        spec.loopSource[l] = {(int64_t)i, (int64_t)d};
      }
    }
    spec.operandLoops.push_back(loops);
  }
  for (auto [l, src] : llvm::enumerate(spec.loopSource))
    if (src.first < 0)
      for (auto [i, loops] : llvm::enumerate(spec.operandLoops))
        for (auto [d, ll] : llvm::enumerate(loops))
          if (ll == (int64_t)l && src.first < 0)
            src = {(int64_t)i, (int64_t)d};
  // Static size-1 dims of a loop that is larger elsewhere broadcast.
  for (auto [i, loops] : llvm::enumerate(spec.operandLoops))
    for (auto [d, l] : llvm::enumerate(loops))
      if (operands[i].getDimSize(d) == 1 && spec.loopSizes[l] != 1)
        l = -1;
  spec.operandLoops.push_back(resultLoops);
  return spec;
}
