// libdlink's C interface (include/dlink/dlink.h): memory inputs, memory
// output, structured messages, misuse, and independent links on threads.
#include "dlink/dlink.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;
const fs::path kJob = fs::path(DLINK_TESTDATA) / "golden" / "call_2tu" / "sm_90";

std::vector<char> slurp(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// call_2tu at sm_90 from memory: the inputs' names exist nowhere on disk.
std::vector<char> link_call_2tu(int *status) {
  dlink_link *l = dlink_create();
  dlink_add_argument(l, "-arch=sm_90");
  for (const char *name : {"kernel.cubin", "helper.cubin"}) {
    std::vector<char> bytes = slurp(kJob / name);
    EXPECT_FALSE(bytes.empty());
    EXPECT_EQ(dlink_add_input(l, name, bytes.data(), bytes.size()), 0);
  }
  dlink_add_argument(l, "-o");
  dlink_add_argument(l, "expected.cubin");
  dlink_set_output_to_memory(l, 1);
  *status = dlink_run(l);
  size_t n = 0;
  const char *image = static_cast<const char *>(dlink_output(l, &n));
  std::vector<char> out(image, image + (image ? n : 0));
  dlink_destroy(l);
  return out;
}

TEST(CApi, MemoryInputsAndOutputGiveNvlinksImage) {
  ASSERT_FALSE(fs::exists("kernel.cubin")) << "the test needs the name to be no file here";
  int status = -1;
  std::vector<char> image = link_call_2tu(&status);
  EXPECT_EQ(status, 0);
  EXPECT_FALSE(fs::exists("expected.cubin")) << "output to memory wrote a file";
  EXPECT_EQ(image, slurp(kJob / "expected.cubin"));
}

TEST(CApi, LinksOnSeveralThreadsAreIndependent) {
  std::vector<char> want = slurp(kJob / "expected.cubin");
  std::vector<std::vector<char>> images(4);
  std::vector<int> status(4, -1);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; t++)
    threads.emplace_back([&, t] { images[t] = link_call_2tu(&status[t]); });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < 4; t++) {
    EXPECT_EQ(status[t], 0);
    EXPECT_EQ(images[t], want) << "thread " << t;
  }
}

TEST(CApi, MessagesAreRecordsAndTheFailedLinkHasNoImage) {
  dlink_link *l = dlink_create();
  dlink_set_program_name(l, "/opt/bin/nvlink");
  dlink_add_argument(l, "-arch=sm_90");
  dlink_add_argument(l, "no-such-input.cubin");
  dlink_add_argument(l, "-o");
  dlink_add_argument(l, "out.cubin");
  dlink_set_output_to_memory(l, 1);
  EXPECT_EQ(dlink_run(l), 1);
  ASSERT_EQ(dlink_diagnostic_count(l), 1u);
  EXPECT_EQ(dlink_diagnostic_severity(l, 0), DLINK_FATAL);
  EXPECT_STREQ(dlink_diagnostic_message(l, 0), "Could not open input file 'no-such-input.cubin'");
  EXPECT_STREQ(dlink_diagnostics_text(l), "nvlink fatal   : Could not open input file 'no-such-input.cubin'\n");
  size_t n = 123;
  EXPECT_EQ(dlink_output(l, &n), nullptr);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(dlink_run(l), -1) << "a link runs once";
  EXPECT_EQ(dlink_add_argument(l, "-v"), -1);
  EXPECT_EQ(dlink_diagnostic_message(l, 5), nullptr);
  dlink_destroy(l);
}

TEST(CApi, NullAndVersion) {
  EXPECT_EQ(dlink_run(nullptr), -1);
  EXPECT_EQ(dlink_add_input(nullptr, "a.cubin", "", 0), -1);
  EXPECT_EQ(dlink_diagnostic_count(nullptr), 0u);
  EXPECT_STREQ(dlink_version(), DLINK_VERSION);
}

} // namespace
