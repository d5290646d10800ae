// commit_output's parallel way for large images (writer.h write_mapped):
// the file holds the pieces in order, whatever the thread count, pieces of
// every size (empty ones, one spanning several batches, many small ones).
#include "writer.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fcntl.h>
#include <random>
#include <unistd.h>
#include <vector>

namespace dlink {
namespace {

std::vector<u8> file_bytes(const std::string &path) {
  std::vector<u8> bytes;
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f)
    return bytes;
  int c;
  while ((c = std::fgetc(f)) != EOF)
    bytes.push_back(static_cast<u8>(c));
  std::fclose(f);
  return bytes;
}

TEST(MappedOutput, PiecesLandInOrder) {
  std::mt19937 rng(7);
  std::vector<std::vector<u8>> storage;
  // Many small pieces, empty ones, and one of 3 MiB (more than a batch).
  for (int i = 0; i < 5000; i++) {
    size_t n = i % 97 == 0 ? 0 : rng() % 700;
    if (i == 2500)
      n = 3u << 20;
    std::vector<u8> piece(n);
    for (u8 &b : piece)
      b = static_cast<u8>(rng());
    storage.push_back(std::move(piece));
  }
  std::vector<std::span<const u8>> pieces;
  std::vector<u8> expected;
  for (const auto &p : storage) {
    pieces.emplace_back(p);
    expected.insert(expected.end(), p.begin(), p.end());
  }
  for (unsigned threads : {1u, 2u, 8u}) {
    std::string path = testing::TempDir() + "mapped_output_" + std::to_string(threads);
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0666);
    ASSERT_GE(fd, 0);
    Parallelism par(threads);
    ASSERT_TRUE(write_mapped(par, fd, pieces, expected.size())) << threads << " threads";
    ASSERT_EQ(::close(fd), 0);
    EXPECT_EQ(file_bytes(path), expected) << threads << " threads";
    std::remove(path.c_str());
  }
}

} // namespace
} // namespace dlink
