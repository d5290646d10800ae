// The demangler against names printed by nvlink 13.0.88 -dump-callgraph.
//
// testdata/demangle/nvlink_names.tsv holds "mangled<TAB>printed" pairs
// measured by testdata/demangle/gen/regen.py; a printed name equal to the
// mangled one means nvlink could not demangle it, and demangle() must return
// nullopt. The other tests feed malformed input: nothing may crash, recurse
// without bound or blow up.
#include "dlink/demangle.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace dlink {
namespace {

std::vector<std::pair<std::string, std::string>> measured() {
  std::ifstream in(std::string(DLINK_TESTDATA) + "/demangle/nvlink_names.tsv");
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::string line; std::getline(in, line);) {
    size_t tab = line.find('\t');
    if (tab != std::string::npos)
      pairs.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return pairs;
}

TEST(Demangle, MatchesNvlink) {
  auto pairs = measured();
  ASSERT_GT(pairs.size(), 300u);
  int failures = 0;
  for (const auto &[mangled, printed] : pairs) {
    std::optional<std::string> got = demangle(mangled);
    std::string shown = got.value_or(mangled);
    if (shown != printed && ++failures <= 50) {
      ADD_FAILURE() << mangled << "\n  nvlink: " << printed << "\n  dlink:  " << shown;
    }
    // nvlink prints the raw name exactly when it cannot demangle it.
    if (printed == mangled) {
      EXPECT_FALSE(got.has_value()) << mangled;
    }
  }
  EXPECT_EQ(failures, 0) << "of " << pairs.size();
}

TEST(Demangle, NotMangled) {
  EXPECT_EQ(demangle(""), std::nullopt);
  EXPECT_EQ(demangle("_"), std::nullopt);
  EXPECT_EQ(demangle("_Z"), std::nullopt);
  EXPECT_EQ(demangle("main"), std::nullopt);
  EXPECT_EQ(demangle("probe_0"), std::nullopt);
  EXPECT_EQ(demangle("__cuda_sm3x_div_rn_noftz_f32_slowpath"), std::nullopt);
  EXPECT_EQ(demangle("Z3fooi"), std::nullopt);
}

TEST(Demangle, Basics) {
  EXPECT_EQ(demangle("_Z3fooi"), "foo(int)");
  EXPECT_EQ(demangle("_Z10accumulateIdET_PKS0_i"), "T1 accumulate<double>(const T1 *, int)");
  EXPECT_EQ(demangle("_ZN1A1fERKS_"), "A::f(const A&)");
  EXPECT_EQ(demangle("_Z1fRK1A"), "f(const A &)");
  EXPECT_EQ(demangle("_ZN5ShapeD0Ev"), "Shape::~Shape() [deleting]");
  EXPECT_EQ(demangle("_Z3fooi$12"), "foo(int)");
  EXPECT_EQ(demangle("_Z3fooi$a"), "[clone foo(int)] a");
  EXPECT_EQ(demangle("_ZNK1A1fEv$q"), "[clone A::f()] q const");
}

TEST(Demangle, Truncated) {
  // Every proper prefix of a measured name either fails or demangles; none
  // may crash. Most fail; a few are names of their own ("_Z3foo").
  for (const auto &[mangled, printed] : measured())
    for (size_t n = 0; n < mangled.size(); n++)
      (void)demangle(std::string_view(mangled).substr(0, n));
  EXPECT_EQ(demangle("_Z3fo"), std::nullopt);
  EXPECT_EQ(demangle("_ZN3foo3bar"), std::nullopt);
  EXPECT_EQ(demangle("_Z1fIiEv"), std::nullopt);
  EXPECT_EQ(demangle("_Z1fPFivE"), "f(int (*)())");
  EXPECT_EQ(demangle("_Z1fPFiv"), std::nullopt);
  EXPECT_EQ(demangle("_Z1fILi5"), std::nullopt);
  EXPECT_EQ(demangle("_Z4987654321x"), std::nullopt);
  EXPECT_EQ(demangle("_Z99999999999999999999999f"), std::nullopt);
}

TEST(Demangle, BadReferences) {
  EXPECT_EQ(demangle("_Z1fS_"), std::nullopt);
  EXPECT_EQ(demangle("_Z1fiS0_"), std::nullopt);
  EXPECT_EQ(demangle("_Z1fPiSZZZZZZ_"), std::nullopt);
  EXPECT_EQ(demangle("_Z1fS9_"), std::nullopt);
  EXPECT_EQ(demangle("_Z1fT9999999999999999999_"), std::nullopt);
  EXPECT_EQ(demangle("_ZN1AD3Ev"), std::nullopt);
  EXPECT_EQ(demangle("_ZL3fooi"), std::nullopt);
}

TEST(Demangle, DeepNesting) {
  // Nesting is capped: a name this deep fails instead of exhausting the stack.
  std::string deep = "_Z1f" + std::string(200000, 'P') + "i";
  EXPECT_EQ(demangle(deep), std::nullopt);
  std::string templates = "_Z1f";
  for (int i = 0; i < 100000; i++)
    templates += "1AI";
  EXPECT_EQ(demangle(templates), std::nullopt);
  std::string moderate = "_Z1f" + std::string(200, 'P') + "i";
  EXPECT_EQ(demangle(moderate), "f(int " + std::string(200, '*') + ")");
}

TEST(Demangle, ExponentialOutput) {
  // Each template names the previous one three times, so the output triples
  // with every level: the size cap stops it.
  const std::string seq_ids = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::string name = "_Z1f1AIiE";
  std::string prev = "S0_"; // A<int>
  for (size_t i = 0; i < 17; i++) {
    name += "1BI" + prev + prev + prev + "E";
    // B is entry 2i + 2, B<...> entry 2i + 3, written S<2i + 2>_
    prev = std::string("S") + seq_ids[2 * i + 2] + "_";
    if (i == 3) {
      EXPECT_TRUE(demangle(name).has_value()) << name;
    }
  }
  EXPECT_EQ(demangle(name), std::nullopt);
}

TEST(Demangle, RandomInput) {
  // Random strings over the mangling alphabet, and measured names with one
  // character changed: any result is fine, crashing is not.
  std::mt19937 rng(12345);
  const std::string alphabet = "_ZNESIJLXTDFPRKVOMAUCGabcdefghijlmnopqrstuvwxyz0123456789$";
  for (int i = 0; i < 20000; i++) {
    std::string s = "_Z";
    int len = static_cast<int>(rng() % 40);
    for (int k = 0; k < len; k++)
      s += alphabet[rng() % alphabet.size()];
    (void)demangle(s);
  }
  for (const auto &[mangled, printed] : measured()) {
    std::string s = mangled;
    if (s.size() < 3)
      continue;
    for (int k = 0; k < 4; k++) {
      s[2 + rng() % (s.size() - 2)] = alphabet[rng() % alphabet.size()];
      (void)demangle(s);
    }
  }
}

} // namespace
} // namespace dlink
