//===- Rnn.cpp - pdk_rnn: Paddle's rnn op (LSTM, GRU, simple RNN) ---------===//
//
// The recurrence of Paddle 2.x's `rnn` op, as described at rnn:: in
// KernelABI.h. Per layer and direction, the input projection of all steps
// is one matrix product; each step then multiplies the previous hidden
// state by W_hh and applies the cell's gates. Sequences shorter than T
// stop early: their state is held and their later output rows are zero,
// so the backward direction starts from each sequence's own last step.
//
//===----------------------------------------------------------------------===//

#include "Common.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace pdk;

namespace {
float sigmoid(float v) { return 1.f / (1.f + std::exp(-v)); }

/// c[m, n] = a[m, k] x b[n, k]^T + bias[n] (row-major), by oneDNN's sgemm.
bool productT(const float *a, const float *b, const float *bias, float *c, int64_t m, int64_t n,
              int64_t k) {
  if (m == 0 || n == 0)
    return true;
  if (dnnl_sgemm('N', 'T', m, n, k, 1.f, a, k, b, k, 0.f, c, n) != dnnl_success) {
    kernelError = "rnn: oneDNN sgemm failed";
    return false;
  }
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      c[i * n + j] += bias[j];
  return true;
}

int64_t gatesOf(int64_t mode) { return mode == rnn::Lstm ? 4 : mode == rnn::Gru ? 3 : 1; }

std::string dimsStr(const int64_t *d) {
  std::string s = "[";
  for (int64_t i = 0; i < d[-1]; ++i)
    s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "]";
}
} // namespace

extern "C" PDK_EXPORT void pdk_rnn(const int64_t *ptrs, const int64_t *ints, const float *) {
  int64_t mode = ints[rnn::Mode], layers = ints[rnn::Layers], dirs = ints[rnn::Directions],
          hidden = ints[rnn::Hidden], gates = gatesOf(mode);
  bool lstm = mode == rnn::Lstm;
  int64_t nSlots = rnn::numSlots(layers, dirs), cells = layers * dirs;
  const float *x = static_cast<const float *>(ptrAt(ptrs, rnn::Input));
  const float *h0 = static_cast<const float *>(ptrAt(ptrs, rnn::H0));
  const float *c0 = static_cast<const float *>(ptrAt(ptrs, rnn::C0));
  const void *lengths = ptrAt(ptrs, rnn::Lengths);
  float *dst = static_cast<float *>(ptrAt(ptrs, nSlots));
  // Dims come for the present slots in slot order, then the destination.
  Dims dims(ints + rnn::NumInts);
  const int64_t *xd = dims.next(), *hd = dims.next(), *cd = c0 ? dims.next() : nullptr,
                *ld = lengths ? dims.next() : nullptr;
  std::vector<const int64_t *> wd(static_cast<size_t>(4 * cells));
  for (auto &d : wd)
    d = dims.next();
  const int64_t *od = dims.next();
  clearDestination(dst, od, sizeof(float));
  if (!kernelError.empty())
    return;
  int64_t steps = xd[0], batch = xd[1], width = xd[2], H = hidden, G = gates * H;
  auto fail = [&](const std::string &msg) { kernelError = "rnn: " + msg; };
  auto stateOk = [&](const int64_t *d) {
    return d[-1] == 3 && d[0] == cells && d[1] == batch && d[2] == H;
  };
  if (!stateOk(hd) || (lstm && (!cd || !stateOk(cd))))
    return fail("the initial state must be [" + std::to_string(cells) + ", " +
                std::to_string(batch) + ", " + std::to_string(H) + "], got " + dimsStr(hd));
  if (ld && (ld[-1] != 1 || ld[0] != batch))
    return fail("SequenceLength must be [" + std::to_string(batch) + "], got " + dimsStr(ld));
  std::vector<int64_t> len(static_cast<size_t>(batch), steps);
  for (int64_t n = 0; ld && n < batch; ++n) {
    int64_t v = ints[rnn::LengthsI64] ? static_cast<const int64_t *>(lengths)[n]
                                      : static_cast<const int32_t *>(lengths)[n];
    if (v < 0 || v > steps)
      return fail("SequenceLength[" + std::to_string(n) + "] is " + std::to_string(v) +
                  ", outside [0, " + std::to_string(steps) + "]");
    len[static_cast<size_t>(n)] = v;
  }
  for (int64_t cell = 0; cell < cells; ++cell) {
    int64_t in = cell < dirs ? width : dirs * H;
    const int64_t *wi = wd[2 * cell], *wh = wd[2 * cell + 1], *bi = wd[2 * cells + 2 * cell],
                  *bh = wd[2 * cells + 2 * cell + 1];
    if (wi[-1] != 2 || wi[0] != G || wi[1] != in || wh[-1] != 2 || wh[0] != G || wh[1] != H ||
        bi[-1] != 1 || bi[0] != G || bh[-1] != 1 || bh[0] != G)
      return fail("cell " + std::to_string(cell) + " needs weights [" + std::to_string(G) + ", " +
                  std::to_string(in) + "] and [" + std::to_string(G) + ", " + std::to_string(H) +
                  "] and biases [" + std::to_string(G) + "], got " + dimsStr(wi) + ", " +
                  dimsStr(wh) + ", " + dimsStr(bi) + ", " + dimsStr(bh));
  }
  int64_t outWidth = dirs * H, rows = steps * batch, stateSize = cells * batch * H;
  float *out = dst, *hn = dst + rows * outWidth, *cn = hn + stateSize;
  // Layer l reads `layerIn` ([T, N, in]) and writes its directions into
  // `layerOut`; the last layer writes the destination's Out.
  std::vector<float> bufA, bufB, gx(static_cast<size_t>(rows * G)),
      gh(static_cast<size_t>(batch * G));
  std::vector<float> h(static_cast<size_t>(batch * H)), c(static_cast<size_t>(batch * H));
  const float *layerIn = x;
  for (int64_t l = 0; l < layers; ++l) {
    int64_t in = l == 0 ? width : outWidth;
    float *layerOut = out;
    if (l + 1 < layers) {
      std::vector<float> &buf = l % 2 ? bufB : bufA;
      buf.assign(static_cast<size_t>(rows * outWidth), 0.f);
      layerOut = buf.data();
    }
    for (int64_t d = 0; d < dirs; ++d) {
      int64_t cell = l * dirs + d;
      auto weight = [&](int64_t i) {
        return static_cast<const float *>(ptrAt(ptrs, rnn::FirstWeight + i));
      };
      const float *wi = weight(2 * cell), *wh = weight(2 * cell + 1),
                  *bi = weight(2 * cells + 2 * cell), *bh = weight(2 * cells + 2 * cell + 1);
      if (!productT(layerIn, wi, bi, gx.data(), rows, G, in))
        return;
      std::memcpy(h.data(), h0 + cell * batch * H, static_cast<size_t>(batch * H) * sizeof(float));
      if (lstm)
        std::memcpy(c.data(), c0 + cell * batch * H,
                    static_cast<size_t>(batch * H) * sizeof(float));
      for (int64_t s = 0; s < steps; ++s) {
        int64_t t = d == 0 ? s : steps - 1 - s;
        if (!productT(h.data(), wh, bh, gh.data(), batch, G, H))
          return;
        for (int64_t n = 0; n < batch; ++n) {
          float *y = layerOut + (t * batch + n) * outWidth + d * H;
          if (t >= len[static_cast<size_t>(n)]) {
            std::memset(y, 0, static_cast<size_t>(H) * sizeof(float));
            continue;
          }
          const float *a = gx.data() + (t * batch + n) * G, *b = gh.data() + n * G;
          float *hr = h.data() + n * H, *cr = c.data() + n * H;
          for (int64_t j = 0; j < H; ++j) {
            float v;
            if (mode == rnn::Lstm) {
              float i = sigmoid(a[j] + b[j]), f = sigmoid(a[H + j] + b[H + j]),
                    g = std::tanh(a[2 * H + j] + b[2 * H + j]),
                    o = sigmoid(a[3 * H + j] + b[3 * H + j]);
              cr[j] = f * cr[j] + i * g;
              v = o * std::tanh(cr[j]);
            } else if (mode == rnn::Gru) {
              float r = sigmoid(a[j] + b[j]), z = sigmoid(a[H + j] + b[H + j]),
                    cand = std::tanh(a[2 * H + j] + r * b[2 * H + j]);
              v = z * hr[j] + (1.f - z) * cand;
            } else {
              v = a[j] + b[j];
              v = mode == rnn::RnnTanh ? std::tanh(v) : (v > 0.f ? v : 0.f);
            }
            hr[j] = v;
            y[j] = v;
          }
        }
      }
      std::memcpy(hn + cell * batch * H, h.data(), static_cast<size_t>(batch * H) * sizeof(float));
      if (lstm)
        std::memcpy(cn + cell * batch * H, c.data(),
                    static_cast<size_t>(batch * H) * sizeof(float));
    }
    layerIn = layerOut;
  }
}

namespace {
float activate(int64_t act, float v) {
  switch (act) {
  case lodrnn::Sigmoid:
    return sigmoid(v);
  case lodrnn::Tanh:
    return std::tanh(v);
  case lodrnn::Relu:
    return v > 0.f ? v : 0.f;
  default:
    return v;
  }
}
} // namespace

extern "C" PDK_EXPORT void pdk_lod_rnn(const int64_t *ptrs, const int64_t *ints,
                                       const float *floats) {
  using namespace lodrnn;
  bool lstmp = ints[Mode] == Lstmp, lstm = ints[Mode] == Lstm || lstmp;
  bool reverse = ints[Reverse] != 0;
  const float *x = static_cast<const float *>(ptrAt(ptrs, Input));
  const float *h0 = static_cast<const float *>(ptrAt(ptrs, H0));
  const float *c0 = static_cast<const float *>(ptrAt(ptrs, C0));
  const float *w = static_cast<const float *>(ptrAt(ptrs, Weight));
  const float *bias = static_cast<const float *>(ptrAt(ptrs, Bias));
  const int64_t *lengths = static_cast<const int64_t *>(ptrAt(ptrs, Lengths));
  const float *pw = static_cast<const float *>(ptrAt(ptrs, ProjWeight));
  float *dst = static_cast<float *>(ptrAt(ptrs, NumSlots));
  Dims dims(ints + NumInts);
  const int64_t *xd = dims.next(), *hd = h0 ? dims.next() : nullptr,
                *cd = c0 ? dims.next() : nullptr;
  const int64_t *wd = dims.next(), *bd = bias ? dims.next() : nullptr, *ld = dims.next();
  const int64_t *pd = pw ? dims.next() : nullptr;
  const int64_t *od = dims.next();
  clearDestination(dst, od, sizeof(float));
  if (!kernelError.empty())
    return;
  const char *name = lstmp ? "lstmp" : lstm ? "lstm" : "gru";
  auto fail = [&](const std::string &msg) { kernelError = std::string(name) + ": " + msg; };
  if (lstmp && (!pd || pd[-1] != 2))
    return fail("needs a 2-D ProjWeight [D, P]");
  // H: the hidden size; R: the size of the recurrent state Weight reads
  // (the projection for LSTMP, else H).
  int64_t gates = lstm ? 4 : 3, rows = xd[0], H = lstmp ? pd[0] : wd[0], R = lstmp ? pd[1] : H;
  int64_t G = gates * H, n = ld[0];
  if (xd[-1] != 2 || xd[1] != G || wd[-1] != 2 || wd[0] != R || wd[1] != G)
    return fail("Input must be [T, " + std::to_string(G) + "] and Weight [" + std::to_string(R) +
                ", " + std::to_string(G) + "], got " + dimsStr(xd) + " and " + dimsStr(wd));
  int64_t biasWidth = lstm && ints[Peepholes] ? 7 * H : G;
  if (bd && (bd[-1] != 2 || bd[0] != 1 || bd[1] != biasWidth))
    return fail("Bias must be [1, " + std::to_string(biasWidth) + "], got " + dimsStr(bd));
  if (lstm && ints[Peepholes] && !bias)
    return fail("peepholes need the Bias input");
  for (const int64_t *sd : {hd, cd})
    if (sd && (sd[-1] != 2 || sd[0] != n || sd[1] != H))
      return fail("H0 and C0 must be [" + std::to_string(n) + ", " + std::to_string(H) +
                  "] (one row per sequence), got " + dimsStr(sd));
  int64_t total = 0;
  for (int64_t s = 0; s < n; total += lengths[s], ++s)
    if (lengths[s] < 0)
      return fail("sequence " + std::to_string(s) + " has a negative length (" +
                  std::to_string(lengths[s]) + ")");
  if (total != rows)
    return fail("the sequence lengths sum to " + std::to_string(total) + " but Input has " +
                std::to_string(rows) + " rows");
  int64_t gateAct = ints[GateAct], cellAct = ints[CellAct], candAct = ints[CandidateAct];
  float cellClip = lstmp ? floats[CellClip] : 0.f, projClip = lstmp ? floats[ProjClip] : 0.f;
  float *hidden = dst, *cellOut = dst + rows * R;
  std::vector<float> g(static_cast<size_t>(G)), h(static_cast<size_t>(H)),
      c(static_cast<size_t>(H)), rh(static_cast<size_t>(H)), r(static_cast<size_t>(R));
  // v x W for a [k, cols] row-major block, added to `into`.
  auto addProduct = [](const float *v, const float *block, int64_t k, int64_t cols, float *into) {
    for (int64_t i = 0; i < k; ++i) {
      float vi = v[i];
      const float *row = block + i * cols;
      for (int64_t j = 0; j < cols; ++j)
        into[j] += vi * row[j];
    }
  };
  // LSTMP: r = ProjAct(h x ProjWeight), clipped when `clip`.
  auto project = [&](const float *hv, bool clip) {
    std::fill(r.begin(), r.end(), 0.f);
    addProduct(hv, pw, H, R, r.data());
    for (float &v : r) {
      v = activate(ints[ProjAct], v);
      if (clip && projClip > 0.f)
        v = std::min(std::max(v, -projClip), projClip);
    }
  };
  int64_t first = 0;
  for (int64_t s = 0; s < n; first += lengths[s], ++s) {
    for (int64_t j = 0; j < H; ++j) {
      h[j] = h0 ? h0[s * H + j] : 0.f;
      c[j] = c0 ? c0[s * H + j] : 0.f;
    }
    if (lstmp) {
      if (h0)
        project(h.data(), /*clip=*/false);
      else
        std::fill(r.begin(), r.end(), 0.f);
    }
    const float *state = lstmp ? r.data() : h.data();
    for (int64_t step = 0; step < lengths[s]; ++step) {
      int64_t row = first + (reverse ? lengths[s] - 1 - step : step);
      for (int64_t j = 0; j < G; ++j)
        g[j] = x[row * G + j] + (bias ? bias[j] : 0.f);
      if (!lstm) {
        float *hOut = hidden + row * H;
        // Update and reset gates from h; the candidate from reset * h.
        addProduct(h.data(), w, H, 2 * H, g.data());
        for (int64_t j = 0; j < 2 * H; ++j)
          g[j] = activate(gateAct, g[j]);
        for (int64_t j = 0; j < H; ++j)
          rh[j] = g[H + j] * h[j];
        addProduct(rh.data(), w + 2 * H * H, H, H, g.data() + 2 * H);
        for (int64_t j = 0; j < H; ++j) {
          float u = g[j], m = activate(candAct, g[2 * H + j]);
          h[j] = ints[OriginMode] ? u * h[j] + (1.f - u) * m : (1.f - u) * h[j] + u * m;
          hOut[j] = h[j];
        }
        continue;
      }
      addProduct(state, w, R, G, g.data());
      const float *peep = ints[Peepholes] ? bias + 4 * H : nullptr;
      float *cOut = cellOut + row * H;
      for (int64_t j = 0; j < H; ++j) {
        float cand = activate(candAct, g[j]);
        float in = activate(gateAct, g[H + j] + (peep ? peep[j] * c[j] : 0.f));
        float forget = activate(gateAct, g[2 * H + j] + (peep ? peep[H + j] * c[j] : 0.f));
        c[j] = forget * c[j] + in * cand;
        if (cellClip > 0.f)
          c[j] = std::min(std::max(c[j], -cellClip), cellClip);
        float out = activate(gateAct, g[3 * H + j] + (peep ? peep[2 * H + j] * c[j] : 0.f));
        h[j] = out * activate(cellAct, c[j]);
        cOut[j] = c[j];
      }
      if (lstmp)
        project(h.data(), /*clip=*/true);
      std::copy(state, state + R, hidden + row * R);
    }
  }
}
