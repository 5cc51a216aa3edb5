//===- Heap.h - the run-time buffers of generated code, under a budget ----===//
//
// Buffers whose size only the run knows (dynamic shapes the memory plan
// leaves to the heap) are allocated by the artifact's code through three
// function pointers it exports (pd_heap_malloc, pd_heap_free,
// HostLibrary.cpp); the runtime points them here. Each block
// carries a header, so the blocks a run holds are known: when they would
// pass the run's budget, the run stops with an out-of-memory error instead
// of the kernel's OOM killer ending the process (Linux hands out pages it
// may not have), and every block the run held is freed.
//
//===----------------------------------------------------------------------===//

#ifndef PADDLEMLIR_LIB_RUNTIME_HEAP_H
#define PADDLEMLIR_LIB_RUNTIME_HEAP_H

#include <csetjmp>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>

namespace pdrt::heap {

struct Header;

/// One instance's runs: the blocks the current run holds and its limit.
struct Budget {
  std::mutex mutex;
  Header *blocks = nullptr; // held by the current run
  size_t live = 0;          // their bytes
  size_t limit = 0;         // the bytes the run may hold before the next check
  bool final = false;       // limit is the budget itself, not a checkpoint
  bool fromEnv = false;     // the budget is PADDLE_MLIR_MEMORY_LIMIT_MB
  /// Whether PADDLE_MLIR_MEMORY_LIMIT_MB is set, read at the first run
  /// (-1: not read yet): a getenv per run was a fifth of a tiny model's run.
  int envLimitSet = -1;
  std::jmp_buf stop;
  /// Whether the allocating thread runs a parallel region (pdk_in_parallel;
  /// null: the artifact has none), where the run cannot stop.
  int64_t (*inParallel)() = nullptr;
  std::string error;
};

void *allocate(size_t bytes);
/// Frees a block of allocate (null is ignored).
void release(void *p);

/// Calls entry(args) on this thread under `budget`: false when the run
/// stopped for memory (budget.error says why; its blocks are freed). The
/// blocks still held when it returns (the outputs) leave the budget.
bool run(Budget &budget, void (*entry)(void **), void **args);

/// The bytes this process may still take: PADDLE_MLIR_MEMORY_LIMIT_MB when
/// set (`fromEnv` true), else the kernel's MemAvailable (0: unknown).
size_t available(bool &fromEnv);

} // namespace pdrt::heap

#endif // PADDLEMLIR_LIB_RUNTIME_HEAP_H
