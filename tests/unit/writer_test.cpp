// write_image_mapped (src/writer.h): a large output written by several
// threads through a shared mapping holds exactly the image's pieces, in
// order, as the one-thread writev does.
#include "writer.h"

#include "dlink/elf.h"
#include "dlink/parallel.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <unistd.h>

namespace dlink {
namespace {

std::vector<u8> read_file(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(WriteImageMapped, FileHoldsThePiecesInOrder) {
  // Pieces of every size an image has: empty ones, a few bytes (.nv.info
  // records, padding), and whole sections of a MiB and more.
  std::mt19937 rng(7);
  std::vector<std::vector<u8>> blobs;
  for (size_t size : {size_t{0}, size_t{3}, size_t{64}, size_t{1} << 20, size_t{0}, size_t{24}, size_t{5000},
                      (size_t{3} << 20) + 1, size_t{1}, size_t{4096}}) {
    std::vector<u8> blob(size);
    for (u8 &b : blob)
      b = static_cast<u8>(rng());
    blobs.push_back(std::move(blob));
  }
  for (int k = 0; k < 2000; k++)
    blobs.push_back(std::vector<u8>(1 + k % 40, static_cast<u8>(k)));
  ElfImage image;
  std::vector<u8> expected;
  for (const std::vector<u8> &blob : blobs) {
    image.pieces.emplace_back(blob);
    expected.insert(expected.end(), blob.begin(), blob.end());
  }
  std::filesystem::path dir = std::filesystem::temp_directory_path() / ("dlink-writer-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (unsigned threads : {1u, 2u, 8u}) {
    Parallelism par(threads);
    std::filesystem::path path = dir / ("out" + std::to_string(threads));
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    ASSERT_GE(fd, 0);
    bool mapped = write_image_mapped(par, fd, image);
    ASSERT_EQ(::close(fd), 0);
    // (A file system that cannot reserve blocks or map files says so; the
    // ones tests run on can.)
    ASSERT_TRUE(mapped) << "the file system of " << dir << " could not reserve or map the output";
    EXPECT_EQ(read_file(path), expected) << threads << " threads";
  }
  std::filesystem::remove_all(dir);
}

TEST(WriteImageMapped, AnEmptyImageIsLeftToTheCaller) {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("dlink-writer-empty-" + std::to_string(::getpid()));
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  ASSERT_GE(fd, 0);
  Parallelism par(2);
  EXPECT_FALSE(write_image_mapped(par, fd, ElfImage{}));
  ::close(fd);
  EXPECT_EQ(std::filesystem::file_size(path), 0u);
  std::filesystem::remove(path);
}

} // namespace
} // namespace dlink
