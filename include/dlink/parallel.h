// Parallel work inside one link (oneTBB, Debian libtbb-dev).
//
// The rule that keeps every output independent of the thread count: stages
// *compute* in parallel into per-item slots, then *commit* in link order on
// one thread (diagnostics, section and symbol creation, anything that
// appends to the OutputModel's creation order). A task given to
// for_each_index must therefore only write state that belongs to its own
// index; it must not call Diagnostics or create output sections or symbols.
// An exception thrown by a task (InputError, FatalError) reaches the caller
// after the loop; when several tasks throw, the one of the lowest index is
// rethrown, so the message does not depend on scheduling either.
//
// --threads N / -j N sets the number of threads. Without it the count is
// automatic: every core this process may run on, unless the link turns out
// small (settle_for_work): then one. With 1 thread every loop runs in order
// on the calling thread, without TBB; so does a loop of no more indices than
// its grain. The arena (and TBB's worker threads) starts at the first loop
// that runs in parallel.
#pragma once

#include <cstddef>
#include <memory>
#include <utility>

namespace dlink {

class Parallelism {
public:
  // threads 0: automatic (every core available to the process, until
  // settle_for_work says otherwise).
  explicit Parallelism(unsigned threads = 0);
  ~Parallelism();
  Parallelism(const Parallelism &) = delete;
  Parallelism &operator=(const Parallelism &) = delete;

  unsigned threads() const { return threads_; }
  bool serial() const { return threads_ <= 1; }

  // An automatic count, once the size of the link is known (its inputs'
  // bytes, with what compiling PTX costs counted in): below
  // kSmallLinkBytes the link runs on one thread, where starting and
  // stopping worker threads cost more than they saved (measured:
  // docs/performance.md, "Start-up, the thread count of small links, and
  // sm_100+ re-finalization").
  // Settles once; no effect with an explicit count.
  void settle_for_work(size_t bytes);
  static constexpr size_t kSmallLinkBytes = size_t{2} << 20;

  // Calls fn(i) for every i in [0, n), concurrently unless serial() or
  // n < 2. grain: the fewest indices one task takes (raise it for cheap
  // bodies).
  template <class F>
  void for_each_index(size_t n, F &&fn, size_t grain = 1) const {
    if (serial() || n < 2 || n <= grain) {
      for (size_t i = 0; i < n; ++i)
        fn(i);
      return;
    }
    auto call = [](void *state, size_t begin, size_t end) {
      F &f = *static_cast<std::remove_reference_t<F> *>(state);
      for (size_t i = begin; i < end; ++i)
        f(i);
    };
    run_ranges(n, grain, const_cast<void *>(static_cast<const void *>(&fn)), call);
  }

  // Every core this process may run on (the default thread count).
  static unsigned available_cores();

private:
  using RangeFn = void (*)(void *state, size_t begin, size_t end);
  void run_ranges(size_t n, size_t grain, void *state, RangeFn call) const;

  unsigned threads_;
  bool automatic_;
  struct Arena;
  // (Made by the first loop that runs in parallel: always on the thread that
  // owns the link, never from inside a loop's task.)
  mutable std::unique_ptr<Arena> arena_;
};

} // namespace dlink
