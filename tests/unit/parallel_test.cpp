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

} // namespace
} // namespace dlink
