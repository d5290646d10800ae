// dlink-diff: compare two cubins.
//
//   dlink-diff A B
//
// Exit status 0 and "identical" when the files are byte-identical. Otherwise
// a semantic, section-by-section report (see tools/lib/cubin_diff.h) and
// exit status 1. When the object models agree but the bytes do not (padding
// between sections, say), the first differing file offset is reported with
// the region it falls in. Exit status 2 for unreadable or malformed input.
#include "dlink/elf.h"
#include "lib/cubin_diff.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>

using namespace dlink;

namespace {

std::optional<std::vector<u8>> read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  return std::vector<u8>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"Semantic comparison of two CUDA cubins"};
  std::string path_a, path_b;
  app.add_option("a", path_a, "first cubin")->required();
  app.add_option("b", path_b, "second cubin")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError &e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  auto bytes_a = read_file(path_a);
  auto bytes_b = read_file(path_b);
  for (const auto &[bytes, path] : {std::pair{&bytes_a, &path_a}, std::pair{&bytes_b, &path_b}})
    if (!*bytes) {
      fmt::print(stderr, "dlink-diff: error: cannot open '{}'\n", *path);
      return 2;
    }
  if (*bytes_a == *bytes_b) {
    fmt::print("identical\n");
    return 0;
  }

  ElfFile a, b;
  try {
    a = read_elf(*bytes_a);
  } catch (const std::exception &e) {
    fmt::print(stderr, "dlink-diff: error: {}: {}\n", path_a, e.what());
    return 2;
  }
  try {
    b = read_elf(*bytes_b);
  } catch (const std::exception &e) {
    fmt::print(stderr, "dlink-diff: error: {}: {}\n", path_b, e.what());
    return 2;
  }

  fmt::print("A: {} ({} bytes)\nB: {} ({} bytes)\n", path_a, bytes_a->size(), path_b,
             bytes_b->size());
  std::cout.flush();
  bool semantic = false;
  try {
    semantic = diff_cubins(a, b, std::cout);
  } catch (const std::exception &e) {
    std::cout.flush();
    fmt::print(stderr, "dlink-diff: error: {}\n", e.what());
    return 2;
  }
  if (!semantic) {
    u64 at = first_difference(*bytes_a, *bytes_b).value_or(0);
    std::cout << fmt::format(
        "object models agree; first differing file byte at 0x{:x}\n  A: {}\n  B: {}\n", at,
        describe_file_offset(a, at), describe_file_offset(b, at));
  }
  std::cout.flush();
  return 1;
}
