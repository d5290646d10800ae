// StringTable: names added with a precomputed hash give the same bytes and
// offsets as names added one by one (the .strtab builder hashes in parallel).
#include "output/string_table.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace dlink {
namespace {

TEST(StringTable, HashedAddsMatchPlainAdds) {
  std::vector<std::string> names;
  for (int i = 0; i < 500; i++)
    names.push_back("name" + std::to_string(i % 173)); // repeats: stored once
  names.push_back("");
  StringTable plain(4), hashed(names.size());
  hashed.reserve_bytes(4096);
  std::vector<u32> a, b;
  for (const std::string &s : names) {
    a.push_back(plain.add(s));
    b.push_back(hashed.add_hashed(s, StringTable::hash(s)));
  }
  EXPECT_EQ(a, b);
  EXPECT_EQ(plain.bytes(), hashed.bytes());
  EXPECT_EQ(plain.offset_of("name5"), hashed.offset_of("name5"));
  EXPECT_EQ(a[0], a[173]);
  size_t end = hashed.bytes().size(); // "again": stored a second time at the end
  EXPECT_EQ(hashed.add_hashed("name7", StringTable::hash("name7"), 0, true), end);
}

} // namespace
} // namespace dlink
