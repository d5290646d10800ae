// Shared helpers for tests that run the whole link in-process.
#pragma once

#include "dlink/diag.h"
#include "dlink/driver.h"
#include "dlink/options.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace dlink::test {

inline std::vector<u8> read_bytes(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct LinkRun {
  int status = 0;          // what main() would return
  std::string diagnostics; // everything written to the diagnostic stream
};

// Runs link() on a full argument list (args[0] is the program name), as
// main() does: a fatal error ends the link with status 1.
inline LinkRun run_link(const std::vector<std::string> &args) {
  std::ostringstream diag_out;
  Diagnostics diag(diag_out);
  LinkRun r;
  try {
    Options opts = parse_command_line(args, diag);
    r.status = link(opts, diag);
  } catch (const FatalError &) {
    r.status = 1;
  }
  r.diagnostics = diag_out.str();
  return r;
}

// Runs the link with `-o out` appended, expects it to succeed, and returns the
// output file's bytes (the file is removed).
inline std::vector<u8> link_output(std::vector<std::string> args, const std::filesystem::path &out) {
  args.push_back("-o");
  args.push_back(out.string());
  LinkRun r = run_link(args);
  EXPECT_EQ(r.status, 0) << r.diagnostics;
  std::vector<u8> bytes = read_bytes(out);
  std::filesystem::remove(out);
  return bytes;
}

} // namespace dlink::test
