//===- Heap.cpp - the run-time buffers of generated code, under a budget --===//
//
// See Heap.h. A run starts with a checkpoint of 256 MiB (or the limit the
// environment sets); the first time its blocks would pass it, the limit
// becomes what the machine has available then. Over the limit, on the
// thread that started the run and outside parallel regions, the run stops:
// its blocks are freed and the runtime returns to its caller through
// longjmp (generated code holds no other resources; kernels never call
// back into it outside pdk_parallel_for). Elsewhere the allocation goes
// ahead, as it would without a budget.
//
//===----------------------------------------------------------------------===//

#include "Heap.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

namespace pdrt::heap {

struct alignas(16) Header {
  uint64_t magic;
  size_t bytes;
  Budget *owner;
  Header *prev, *next;
};
static_assert(sizeof(Header) <= 64, "a block's header is its 64-byte prefix");

namespace {
constexpr uint64_t kMagic = 0x7064686561703634ull; // "pdheap64"
constexpr size_t kPrefix = 64;
constexpr size_t kMiB = size_t(1) << 20;
constexpr size_t kCheckpoint = 256 * kMiB;

thread_local Budget *current = nullptr;

Header *headerOf(void *p) { return reinterpret_cast<Header *>(static_cast<char *>(p) - kPrefix); }

std::string mib(size_t bytes) { return std::to_string((bytes + kMiB / 2) / kMiB) + " MiB"; }

/// Whether `b` may hold `bytes` more; false once the run must stop.
bool admit(Budget &b, size_t bytes) {
  if (b.live + bytes <= b.limit)
    return true;
  if (!b.final) {
    size_t avail = available(b.fromEnv);
    b.final = true;
    // Unknown (no /proc): no budget.
    b.limit = avail == 0 ? SIZE_MAX : b.fromEnv ? avail : b.live + avail / 10 * 9;
    if (b.live + bytes <= b.limit)
      return true;
  }
  if (b.inParallel && b.inParallel())
    return true; // cannot stop inside a parallel region
  b.error = "out of memory: the run's buffers would pass " + mib(b.limit) +
            (b.fromEnv ? " (PADDLE_MLIR_MEMORY_LIMIT_MB)" : " (the memory this machine has free)") +
            ": " + mib(b.live) + " held, " + mib(bytes) + " more asked; smaller inputs need less";
  return false;
}

/// Frees every block `b` holds and leaves the run.
[[noreturn]] void stop(Budget &b) {
  {
    std::lock_guard<std::mutex> lock(b.mutex);
    for (Header *h = b.blocks; h;) {
      Header *next = h->next;
      h->magic = 0;
      std::free(h);
      h = next;
    }
    b.blocks = nullptr;
    b.live = 0;
  }
  current = nullptr;
  std::longjmp(b.stop, 1);
}

/// The block after `base`'s header, listed in the current run's blocks.
void *track(void *base, size_t bytes) {
  if (!base)
    return nullptr;
  auto *h = static_cast<Header *>(base);
  h->magic = kMagic;
  h->bytes = bytes;
  h->owner = current;
  h->prev = nullptr;
  h->next = nullptr;
  if (Budget *b = current) {
    std::lock_guard<std::mutex> lock(b->mutex);
    h->next = b->blocks;
    if (b->blocks)
      b->blocks->prev = h;
    b->blocks = h;
    b->live += bytes;
  }
  return static_cast<char *>(base) + kPrefix;
}
} // namespace

size_t available(bool &fromEnv) {
  if (const char *env = std::getenv("PADDLE_MLIR_MEMORY_LIMIT_MB"); env && *env) {
    fromEnv = true;
    return static_cast<size_t>(std::strtoull(env, nullptr, 10)) * kMiB;
  }
  fromEnv = false;
  std::ifstream in("/proc/meminfo");
  std::string key;
  size_t kb = 0;
  while (in >> key >> kb) {
    if (key == "MemAvailable:")
      return kb * 1024;
    in.ignore(256, '\n');
  }
  return 0;
}

void *allocate(size_t bytes) {
  if (current && !admit(*current, bytes))
    stop(*current);
  return track(std::malloc(bytes + kPrefix), bytes);
}

void release(void *p) {
  if (!p)
    return;
  Header *h = headerOf(p);
  if (h->magic != kMagic)
    std::abort(); // not a block of these hooks: a bug, not an input error
  if (Budget *b = h->owner) {
    std::lock_guard<std::mutex> lock(b->mutex);
    (h->prev ? h->prev->next : b->blocks) = h->next;
    if (h->next)
      h->next->prev = h->prev;
    b->live -= h->bytes;
  }
  h->magic = 0;
  std::free(h);
}

bool run(Budget &budget, void (*entry)(void **), void **args) {
  budget.fromEnv = false;
  if (budget.envLimitSet < 0)
    budget.envLimitSet = std::getenv("PADDLE_MLIR_MEMORY_LIMIT_MB") ? 1 : 0;
  size_t envLimit = budget.envLimitSet ? available(budget.fromEnv) : 0;
  budget.limit = budget.fromEnv ? envLimit : kCheckpoint;
  budget.final = budget.fromEnv;
  budget.error.clear();
  if (setjmp(budget.stop) != 0)
    return false;
  current = &budget;
  entry(args);
  current = nullptr;
  // What the run still holds (its outputs) is the runtime's now.
  std::lock_guard<std::mutex> lock(budget.mutex);
  for (Header *h = budget.blocks; h; h = h->next)
    h->owner = nullptr;
  budget.blocks = nullptr;
  budget.live = 0;
  return true;
}

} // namespace pdrt::heap
