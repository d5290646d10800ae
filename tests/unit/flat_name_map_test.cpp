// FlatNameMap (include/dlink/name_hash.h), the output model's section index, and
// KeyIndex and PointerIndex (include/dlink/key_index.h), the call graphs' numbering.
#include "dlink/name_hash.h"
#include "dlink/key_index.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace dlink {
namespace {

TEST(FlatNameMap, FindsWhatWasAddedAndKeepsTheFirstValue) {
  FlatNameMap<int> map;
  EXPECT_EQ(map.find(".text.f"), nullptr);
  EXPECT_TRUE(map.emplace(".text.f", 1));
  EXPECT_TRUE(map.emplace(".text.g", 2));
  EXPECT_FALSE(map.emplace(".text.f", 3)); // (a present key keeps its value)
  ASSERT_NE(map.find(".text.f"), nullptr);
  EXPECT_EQ(*map.find(".text.f"), 1);
  EXPECT_EQ(*map.find(".text.g"), 2);
  EXPECT_EQ(map.find(".text.h"), nullptr);
  EXPECT_EQ(map.find(""), nullptr);
  EXPECT_EQ(map.size(), 2u);
  map.erase(".text.f");
  map.erase(".text.f"); // (absent: nothing happens)
  EXPECT_EQ(map.find(".text.f"), nullptr);
  EXPECT_EQ(*map.find(".text.g"), 2);
  EXPECT_TRUE(map.emplace(".text.f", 4));
  EXPECT_EQ(*map.find(".text.f"), 4);
}

// Random additions and removals, checked against std::unordered_map after
// every step: few slots at first (growth), then many keys in a reserved
// table (long probe runs that wrap around, removals inside them).
TEST(FlatNameMap, AgreesWithAReferenceMapUnderRandomEdits) {
  std::vector<std::string> names;
  for (int i = 0; i < 3000; i++)
    names.push_back(".nv.info._Z" + std::to_string(i * 7919 % 10007) + "kernel");
  std::mt19937 rng(12345);
  for (size_t reserve : {size_t(0), size_t(2000)}) {
    FlatNameMap<int> map;
    std::unordered_map<std::string, int> ref;
    if (reserve)
      map.reserve(reserve);
    for (int step = 0; step < 40000; step++) {
      const std::string &name = names[rng() % names.size()];
      if (rng() % 3 == 0) {
        map.erase(name);
        ref.erase(name);
      } else {
        EXPECT_EQ(map.emplace(name, step), ref.emplace(name, step).second);
      }
      if (step % 997 == 0) {
        ASSERT_EQ(map.size(), ref.size());
        for (const std::string &n : names) {
          auto it = ref.find(n);
          const int *v = map.find(n);
          ASSERT_EQ(v != nullptr, it != ref.end()) << n << " at step " << step;
          if (v) {
            ASSERT_EQ(*v, it->second) << n;
          }
        }
      }
    }
  }
}

// try_emplace gives the value held for a present key, untouched.
TEST(FlatNameMap, TryEmplaceKeepsTheValueOfAPresentKey) {
  FlatNameMap<int> map;
  auto [first, added] = map.try_emplace("k", 1);
  EXPECT_TRUE(added);
  EXPECT_EQ(*first, 1);
  auto [again, added_again] = map.try_emplace("k", 2);
  EXPECT_FALSE(added_again);
  EXPECT_EQ(*again, 1);
  *again = 3;
  EXPECT_EQ(*map.find("k"), 3);
}

// Pointers are numbered in the order first seen, whatever their addresses,
// through the table's growth.
TEST(PointerIndex, NumbersInOrderOfFirstSight) {
  std::vector<int> objects(5000);
  std::vector<const int *> order;
  std::mt19937 rng(7);
  for (int i = 0; i < 20000; i++)
    order.push_back(&objects[rng() % objects.size()]);
  PointerIndex<int> index;
  std::unordered_map<const int *, std::uint32_t> ref;
  for (const int *p : order) {
    auto [n, fresh] = index.intern(p);
    auto [it, ref_fresh] = ref.try_emplace(p, static_cast<std::uint32_t>(ref.size()));
    ASSERT_EQ(fresh, ref_fresh);
    ASSERT_EQ(n, it->second);
  }
  ASSERT_EQ(index.size(), ref.size());
  for (const auto &[p, n] : ref) {
    ASSERT_EQ(index.find(p), std::optional<std::uint32_t>(n));
    ASSERT_EQ(index.keys()[n], p);
  }
  int outside = 0;
  EXPECT_EQ(index.find(&outside), std::nullopt);
}

} // namespace
} // namespace dlink
