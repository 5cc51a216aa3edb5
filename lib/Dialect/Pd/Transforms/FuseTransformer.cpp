//===- FuseTransformer.cpp - BERT/ERNIE block fusions ----------------------===//
//
// pd-fuse-multihead-matmul: the self-attention block -> pd.multihead_matmul.
// pd-fuse-embedding-layernorm: sum of embedding lookups + layer_norm ->
// pd.fused_embedding_eltwise_layernorm.
//
//===----------------------------------------------------------------------===//

#include "Constants.h"
#include "PaddleMLIR/Dialect/Pd/IR/PdOps.h"
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::pd {
#define GEN_PASS_DEF_PDFUSEMULTIHEADMATMULPASS
#define GEN_PASS_DEF_PDFUSEEMBEDDINGLAYERNORMPASS
#include "PaddleMLIR/Dialect/Pd/Transforms/Passes.h.inc"

namespace {
/// A scale op that only multiplies: no bias, no scale tensor.
std::optional<double> pureScale(ScaleOp s) {
  if (!s || s.getScaleTensor() || s.getBias().convertToDouble() != 0.0)
    return std::nullopt;
  return s.getScale().convertToDouble();
}

/// One projected head tensor: transpose2[0,2,1,3](reshape2[0,0,n,d](fc(x))),
/// optionally multiplied by a scale (on the fc output or on the heads).
struct Head {
  FcOp fc;
  Reshape2Op reshape;
  Transpose2Op transpose;
  SmallVector<ScaleOp> scales;
  double factor = 1.0;
  int64_t heads = 0, headDim = 0;
  std::vector<float> w, b;
};

std::optional<Head> matchHead(Value v) {
  Head h;
  auto takeScale = [&](Value &cur) {
    if (auto s = cur.getDefiningOp<ScaleOp>())
      if (auto f = pureScale(s); f && s->hasOneUse()) {
        h.factor *= *f;
        h.scales.push_back(s);
        cur = s.getX();
      }
  };
  takeScale(v);
  h.transpose = v.getDefiningOp<Transpose2Op>();
  if (!h.transpose || !h.transpose->hasOneUse() ||
      h.transpose.getAxis() != ArrayRef<int32_t>{0, 2, 1, 3})
    return std::nullopt;
  h.reshape = h.transpose.getX().getDefiningOp<Reshape2Op>();
  if (!h.reshape || !h.reshape->hasOneUse() || h.reshape.getShapeInput() ||
      !h.reshape.getShapeTensor().empty())
    return std::nullopt;
  ArrayRef<int32_t> shape = h.reshape.getShape();
  if (shape.size() != 4 || shape[0] != 0 || shape[1] != 0 || shape[2] <= 0 || shape[3] <= 0)
    return std::nullopt;
  h.heads = shape[2];
  h.headDim = shape[3];
  Value projected = h.reshape.getX();
  takeScale(projected);
  h.fc = projected.getDefiningOp<FcOp>();
  if (!h.fc || !h.fc->hasOneUse() || !h.fc.getBias() || !h.fc.getActivationType().empty() ||
      h.fc.getInNumColDims() != 2)
    return std::nullopt;
  auto wt = cast<RankedTensorType>(h.fc.getW().getType());
  int64_t hidden = h.heads * h.headDim;
  if (!wt.hasStaticShape() || wt.getDimSize(0) != hidden || wt.getDimSize(1) != hidden)
    return std::nullopt;
  auto w = constantData(h.fc.getW()), b = constantData(h.fc.getBias());
  if (!w || !b || (int64_t)b->size() != hidden)
    return std::nullopt;
  h.w = std::move(*w);
  h.b = std::move(*b);
  return h;
}

/// reshape2[0,0,H](transpose2[0,2,1,3](softmax(alpha * Q K^T [+ mask]) V))
/// with Q, K, V projections of the same input -> pd.multihead_matmul.
struct FuseMultiheadMatmul : OpRewritePattern<Reshape2Op> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Reshape2Op root, PatternRewriter &rewriter) const override {
    auto type = dyn_cast<RankedTensorType>(root.getType());
    if (!type || type.getRank() != 3 || root.getShapeInput() || !root.getShapeTensor().empty())
      return failure();
    ArrayRef<int32_t> shape = root.getShape();
    if (shape.size() != 3 || shape[0] != 0 || shape[1] != 0)
      return failure();
    auto ctxT = root.getX().getDefiningOp<Transpose2Op>();
    if (!ctxT || !ctxT->hasOneUse() || ctxT.getAxis() != ArrayRef<int32_t>{0, 2, 1, 3})
      return failure();
    auto pv = ctxT.getX().getDefiningOp<MatmulV2Op>();
    if (!pv || !pv->hasOneUse() || pv.getTransX() || pv.getTransY())
      return failure();
    auto softmax = pv.getX().getDefiningOp<SoftmaxOp>();
    if (!softmax || !softmax->hasOneUse() || (softmax.getAxis() != -1 && softmax.getAxis() != 3))
      return failure();
    // Optional mask add.
    Value scores = softmax.getX(), mask;
    ElementwiseAddOp maskAdd = scores.getDefiningOp<ElementwiseAddOp>();
    if (maskAdd) {
      auto mt = dyn_cast<RankedTensorType>(maskAdd.getY().getType());
      if (!maskAdd->hasOneUse() || !mt || mt.getRank() > 4 ||
          (maskAdd.getAxis() != -1 && maskAdd.getAxis() != 4 - mt.getRank()))
        return failure();
      mask = maskAdd.getY();
      scores = maskAdd.getX();
    }
    // Optional scale of the scores, then Q K^T (matmul_v2 or matmul with alpha).
    double alpha = 1.0;
    ScaleOp scoreScale = scores.getDefiningOp<ScaleOp>();
    if (scoreScale) {
      auto f = pureScale(scoreScale);
      if (!f || !scoreScale->hasOneUse())
        return failure();
      alpha *= *f;
      scores = scoreScale.getX();
    }
    Operation *qk = scores.getDefiningOp();
    Value qv, kv;
    if (auto m = dyn_cast_or_null<MatmulV2Op>(qk)) {
      if (m.getTransX() || !m.getTransY())
        return failure();
      qv = m.getX();
      kv = m.getY();
    } else if (auto m = dyn_cast_or_null<MatmulOp>(qk)) {
      if (m.getTranspose_X() || !m.getTranspose_Y())
        return failure();
      alpha *= m.getAlpha().convertToDouble();
      qv = m.getX();
      kv = m.getY();
    } else {
      return failure();
    }
    if (!qk->hasOneUse())
      return failure();
    auto q = matchHead(qv), k = matchHead(kv), v = matchHead(pv.getY());
    if (!q || !k || !v || v->factor != 1.0)
      return failure();
    Value x = q->fc.getInput();
    if (k->fc.getInput() != x || v->fc.getInput() != x || q->heads != k->heads ||
        q->heads != v->heads || q->headDim != k->headDim || q->headDim != v->headDim)
      return failure();
    int64_t hidden = q->heads * q->headDim;
    if (type.getDimSize(2) != hidden || (shape[2] != hidden && shape[2] != -1) ||
        cast<RankedTensorType>(x.getType()).getRank() != 3)
      return failure();
    alpha *= q->factor * k->factor;

    // W [H, 3, H] and Bias [3, H] from the three projections.
    std::vector<float> w(size_t(hidden) * 3 * hidden), b(3 * size_t(hidden));
    const Head *parts[3] = {&*q, &*k, &*v};
    for (int64_t t = 0; t < 3; ++t) {
      for (int64_t i = 0; i < hidden; ++i)
        std::copy_n(parts[t]->w.begin() + i * hidden, hidden, w.begin() + (i * 3 + t) * hidden);
      std::copy(parts[t]->b.begin(), parts[t]->b.end(), b.begin() + t * hidden);
    }
    Type f32 = rewriter.getF32Type();
    std::string base = globalName(q->fc.getW(), "attention");
    Value wv = newConstant(rewriter, root, base + ".qkv_fused",
                           RankedTensorType::get({hidden, 3, hidden}, f32), w);
    Value bv = newConstant(rewriter, root, globalName(q->fc.getBias(), "attention") + ".qkv_fused",
                           RankedTensorType::get({3, hidden}, f32), b);
    auto fused = MultiheadMatmulOp::create(
        rewriter, root.getLoc(), type, x, wv, bv, mask, rewriter.getF32FloatAttr(alpha),
        rewriter.getI32IntegerAttr(q->heads), BoolAttr(), BoolAttr(), BoolAttr());
    rewriter.replaceOp(root, fused.getResult());
    // Erase the block (eraseDead finds an order where each op is unused).
    SmallVector<Operation *> dead = {ctxT, pv, softmax, qk};
    if (maskAdd)
      dead.push_back(maskAdd);
    if (scoreScale)
      dead.push_back(scoreScale);
    for (const Head *h : parts) {
      dead.append(h->scales.begin(), h->scales.end());
      dead.append({h->transpose, h->reshape, h->fc});
    }
    eraseDead(rewriter, dead);
    return success();
  }

  /// Erases ops in an order where each is unused when erased.
  static void eraseDead(PatternRewriter &rewriter, SmallVector<Operation *> ops) {
    bool progress = true;
    while (!ops.empty() && progress) {
      progress = false;
      for (auto it = ops.begin(); it != ops.end();) {
        if ((*it)->use_empty()) {
          rewriter.eraseOp(*it);
          it = ops.erase(it);
          progress = true;
        } else {
          ++it;
        }
      }
    }
  }
};

/// Collects the leaves of a tree of single-use same-shape adds.
bool collectEmbeddingSum(Value v, SmallVector<LookupTableV2Op> &lookups,
                         SmallVector<Operation *> &adds, RankedTensorType type) {
  if (v.getType() != type)
    return false;
  if (auto lookup = v.getDefiningOp<LookupTableV2Op>()) {
    if (!lookup->hasOneUse() || lookup.getPaddingIdx() != -1 ||
        cast<RankedTensorType>(lookup.getIds().getType()).getRank() != 2)
      return false;
    lookups.push_back(lookup);
    return true;
  }
  auto add = v.getDefiningOp<ElementwiseAddOp>();
  if (!add || !add->hasOneUse() || add.getX().getType() != add.getY().getType())
    return false;
  adds.push_back(add);
  return collectEmbeddingSum(add.getX(), lookups, adds, type) &&
         collectEmbeddingSum(add.getY(), lookups, adds, type);
}

/// layer_norm(lookup(E1, ids1) + lookup(E2, ids2) + ...) over the last dim
/// -> pd.fused_embedding_eltwise_layernorm.
struct FuseEmbeddingLayernorm : OpRewritePattern<LayerNormOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LayerNormOp ln, PatternRewriter &rewriter) const override {
    auto type = cast<RankedTensorType>(ln.getType());
    if (type.getRank() != 3 || ln.getBeginNormAxis() != 2 || !ln.getScale() || !ln.getBias())
      return failure();
    SmallVector<LookupTableV2Op> lookups;
    SmallVector<Operation *> adds;
    if (!collectEmbeddingSum(ln.getX(), lookups, adds, type) || lookups.size() < 2)
      return failure();
    SmallVector<Value> ids, embs;
    for (LookupTableV2Op l : lookups) {
      ids.push_back(l.getIds());
      embs.push_back(l.getW());
    }
    auto fused = FusedEmbeddingEltwiseLayernormOp::create(
        rewriter, ln.getLoc(), type, ids, embs, ln.getBias(), ln.getScale(), ln.getEpsilonAttr());
    rewriter.replaceOp(ln, fused.getResult());
    for (Operation *add : adds)
      rewriter.eraseOp(add);
    for (LookupTableV2Op l : lookups)
      rewriter.eraseOp(l);
    return success();
  }
};

struct PdFuseMultiheadMatmulPass : impl::PdFuseMultiheadMatmulPassBase<PdFuseMultiheadMatmulPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseMultiheadMatmul>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    // The separate projection weights are no longer read.
    eraseUnusedGlobals(getOperation());
  }
};

struct PdFuseEmbeddingLayernormPass
    : impl::PdFuseEmbeddingLayernormPassBase<PdFuseEmbeddingLayernormPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<FuseEmbeddingLayernorm>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
} // namespace mlir::pd
