// Parallelism (dlink/parallel.h): every index runs once, and a failing loop
// reports the failure of its lowest index whatever the thread count.
#include "dlink/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlink {
namespace {

// The indices a loop of n (with that grain) gave its body, in the order it
// did: for a loop that must run on the calling thread, in order (the vector
// is not synchronised).
std::vector<size_t> order_of(const Parallelism &par, size_t n, size_t grain = 1) {
  std::vector<size_t> order;
  par.for_each_index(n, [&](size_t i) { order.push_back(i); }, grain);
  return order;
}

std::vector<size_t> iota(size_t n) {
  std::vector<size_t> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = i;
  return v;
}

TEST(Parallelism, EveryIndexRunsOnce) {
  for (unsigned threads : {1u, 2u, 8u}) {
    Parallelism par(threads);
    EXPECT_EQ(par.threads(), threads);
    std::vector<std::atomic<int>> hits(10007);
    par.for_each_index(hits.size(), [&](size_t i) { hits[i]++; });
    for (size_t i = 0; i < hits.size(); ++i)
      ASSERT_EQ(hits[i].load(), 1) << "index " << i << " with " << threads << " threads";
  }
}

TEST(Parallelism, SerialRunsInOrder) {
  Parallelism par(1);
  EXPECT_TRUE(par.serial());
  EXPECT_EQ(order_of(par, 100), iota(100));
}

TEST(Parallelism, LowestFailingIndexIsReported) {
  for (unsigned threads : {1u, 2u, 8u}) {
    Parallelism par(threads);
    try {
      par.for_each_index(5000, [](size_t i) {
        if (i % 997 == 3)
          throw std::runtime_error("index " + std::to_string(i));
      });
      FAIL() << "no exception with " << threads << " threads";
    } catch (const std::runtime_error &e) {
      EXPECT_EQ(std::string(e.what()), "index 3") << threads << " threads";
    }
  }
}

TEST(Parallelism, DefaultIsEveryCore) {
  Parallelism par;
  EXPECT_EQ(par.threads(), Parallelism::available_cores());
  EXPECT_GE(par.threads(), 1u);
}

TEST(Parallelism, AutomaticCountSettlesOnTheSizeOfTheLink) {
  Parallelism small;
  small.settle_for_work(Parallelism::kSmallLinkBytes - 1);
  EXPECT_EQ(small.threads(), 1u);
  small.settle_for_work(Parallelism::kSmallLinkBytes * 8); // settled once
  EXPECT_EQ(small.threads(), 1u);

  Parallelism large;
  large.settle_for_work(Parallelism::kSmallLinkBytes);
  EXPECT_EQ(large.threads(), Parallelism::available_cores());
  large.settle_for_work(0);
  EXPECT_EQ(large.threads(), Parallelism::available_cores());

  // An explicit count is the user's: kept for a small link too.
  Parallelism explicit_count(8);
  explicit_count.settle_for_work(0);
  EXPECT_EQ(explicit_count.threads(), 8u);
}

TEST(Parallelism, AutomaticCountSettlesAfterALoopRanInParallel) {
  Parallelism par(0);
  std::vector<std::atomic<int>> hits(4096);
  par.for_each_index(hits.size(), [&](size_t i) { hits[i]++; });
  par.settle_for_work(0); // (the workers exist; the loops after run on one thread)
  EXPECT_TRUE(par.serial());
  EXPECT_EQ(order_of(par, 100), iota(100));
}

TEST(Parallelism, LoopWithinItsGrainRunsInOrderOnTheCaller) {
  Parallelism par(8);
  EXPECT_EQ(order_of(par, 64, /*grain=*/64), iota(64));
}

} // namespace
} // namespace dlink
