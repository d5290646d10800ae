// sm_100 and newer are linked by default (no opt-in environment variable).
#include "link_runner.h"

#include "dlink/elf.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

using namespace dlink;
namespace fs = std::filesystem;

TEST(MercuryDefault, LinksSm100WithoutOptIn) {
  ::unsetenv("DLINK_EXPERIMENTAL_MERCURY");
  for (const char *arch : {"sm_100", "sm_110", "sm_120"}) {
    fs::path in = fs::path(DLINK_TESTDATA) / "golden" / "single_tu" / arch / "kernel.cubin";
    fs::path out = fs::temp_directory_path() / ("dlink_mercury_default_" + std::string(arch) + ".cubin");
    std::vector<u8> bytes =
        test::link_output({"nvlink", std::string("-arch=") + arch, in.string()}, out);
    ASSERT_TRUE(is_cuda_elf(bytes)) << arch;
    EXPECT_EQ(read_elf(bytes).sm(), std::stoul(std::string(arch).substr(3))) << arch;
  }
}
