// Parallelism (dlink/parallel.h): a oneTBB task arena of --threads threads.
#include "dlink/parallel.h"

#include <oneapi/tbb/blocked_range.h>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/info.h>
#include <oneapi/tbb/parallel_for.h>
#include <oneapi/tbb/task_arena.h>

#include <exception>
#include <limits>
#include <mutex>

namespace dlink {

struct Parallelism::Arena {
  // More threads than cores (-j 8 on a 2-core machine): TBB's worker limit
  // is raised for the link, else TBB prints a warning on stderr (and an
  // output stream must not depend on the thread count).
  explicit Arena(int threads)
      : limit(threads > tbb::info::default_concurrency()
                  ? std::make_unique<tbb::global_control>(
                        tbb::global_control::max_allowed_parallelism, static_cast<size_t>(threads))
                  : nullptr),
        arena(threads) {}
  std::unique_ptr<tbb::global_control> limit;
  tbb::task_arena arena;
};

unsigned Parallelism::available_cores() {
  int n = tbb::info::default_concurrency();
  return n > 0 ? static_cast<unsigned>(n) : 1;
}

Parallelism::Parallelism(unsigned threads)
    : threads_(threads ? threads : available_cores()), automatic_(threads == 0) {}

void Parallelism::settle_for_work(size_t bytes) {
  if (automatic_ && bytes < kSmallLinkBytes)
    threads_ = 1;
  automatic_ = false;
}

Parallelism::~Parallelism() = default;

void Parallelism::run_ranges(size_t n, size_t grain, void *state, RangeFn call) const {
  // The exception of the lowest index wins (TBB would pass on whichever came first).
  std::mutex m;
  size_t failed_at = std::numeric_limits<size_t>::max();
  std::exception_ptr failure;
  if (!arena_)
    arena_ = std::make_unique<Arena>(static_cast<int>(threads_));
  arena_->arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, grain ? grain : 1),
                      [&](const tbb::blocked_range<size_t> &r) {
                        for (size_t i = r.begin(); i < r.end(); ++i) {
                          try {
                            call(state, i, i + 1);
                          } catch (...) {
                            std::lock_guard lock(m);
                            if (i < failed_at) {
                              failed_at = i;
                              failure = std::current_exception();
                            }
                            return; // the rest of this range is not needed
                          }
                        }
                      });
  });
  if (failure)
    std::rethrow_exception(failure);
}

} // namespace dlink
