// sgemm throughput of oneDNN's matmul on this machine, for the BERT-base
// shapes (M = 128 tokens at batch 1, 1024 at batch 8) and a large square
// product: the ceiling the fp32 BERT numbers of benchmarks/peers.py run
// against (fastest of 10 runs, weights plain / transposed / oneDNN's
// choice, inputs filled with ordinary values).
//
//   g++ -O2 benchmarks/gemm_peak.cpp -o /tmp/gemm_peak -ldnnl && OMP_NUM_THREADS=2 /tmp/gemm_peak
#include "oneapi/dnnl/dnnl.hpp"
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>
using namespace dnnl;
using tag = memory::format_tag;
void fill(memory &m) {
  float *p = (float *)m.get_data_handle();
  size_t n = m.get_desc().get_size() / 4;
  for (size_t i = 0; i < n; ++i)
    p[i] = 0.01f * (i % 97);
}
int main() {
  engine eng(engine::kind::cpu, 0);
  stream s(eng);
  int shapes[][3] = {{128, 768, 768},   {128, 768, 3072},  {128, 3072, 768},  {1024, 768, 768},
                     {1024, 768, 3072}, {1024, 3072, 768}, {4096, 4096, 4096}};
  for (auto &sh : shapes) {
    int M = sh[0], K = sh[1], N = sh[2];
    for (tag wt : {tag::ab, tag::ba, tag::any}) {
      memory::desc a({M, K}, memory::data_type::f32, tag::ab);
      memory::desc b({K, N}, memory::data_type::f32, wt);
      memory::desc c({M, N}, memory::data_type::f32, tag::ab);
      matmul::primitive_desc pd(matmul::desc(a, b, c), eng);
      memory A(a, eng), B(pd.weights_desc(), eng), C(c, eng);
      fill(A);
      fill(B);
      matmul p(pd);
      double best = 1e9;
      for (int r = 0; r < 10; ++r) {
        auto t = std::chrono::steady_clock::now();
        p.execute(s, {{DNNL_ARG_SRC, A}, {DNNL_ARG_WEIGHTS, B}, {DNNL_ARG_DST, C}});
        s.wait();
        double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
        if (ms < best)
          best = ms;
      }
      printf("%d x %d x %d w%s: %.2f ms, %.1f GFLOP/s  %s\n", M, K, N,
             wt == tag::ab   ? "ab"
             : wt == tag::ba ? "ba"
                             : "any",
             best, 2.0 * M * K * N / best / 1e6, pd.impl_info_str());
    }
  }
}
