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
  std::vector<size_t> order;
  par.for_each_index(100, [&](size_t i) { order.push_back(i); });
  for (size_t i = 0; i < order.size(); ++i)
    ASSERT_EQ(order[i], i);
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
  std::vector<size_t> order;
  par.for_each_index(100, [&](size_t i) { order.push_back(i); });
  for (size_t i = 0; i < order.size(); ++i)
    ASSERT_EQ(order[i], i);
}

TEST(Parallelism, LoopWithinItsGrainRunsInOrderOnTheCaller) {
  Parallelism par(8);
  std::vector<size_t> order;
  par.for_each_index(64, [&](size_t i) { order.push_back(i); }, 64); // (unsynchronised: one thread)
  ASSERT_EQ(order.size(), 64u);
  for (size_t i = 0; i < order.size(); ++i)
    ASSERT_EQ(order[i], i);
}

} // namespace
} // namespace dlink
