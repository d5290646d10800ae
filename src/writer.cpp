// Stage 6: serialization (writer.h).
//
// Consumes the finished output model; produces the bytes of the cubin, in
// steps (src/output/): which sections stay and their order
// (section_order.cpp), the symbol tables' order and the string tables, the
// bytes of the synthetic sections (synthetic.h: prepared in order, written
// independently), the headers (headers.cpp). The capsule-Mercury world of
// sm_100+ joins through the hooks of mercury/output.h.
#include "writer.h"

#include "output/target_hooks.h"
#include "output/sections.h"
#include "output/synthetic.h"
#include "relocatable.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

namespace dlink {

void write_output(Context &ctx) {
  OutputLayout layout;
  drop_empty_sections(ctx);
  order_sections(ctx, layout);
  order_symbols(ctx, layout);
  build_string_tables(ctx, layout);

  // Section bytes: the metadata (which adds .strtab strings), then the
  // tables.
  SyntheticSections synthetic = metadata_sections(ctx, layout);
  SyntheticSections tables = table_sections(ctx, layout);
  for (auto &t : tables)
    synthetic.push_back(std::move(t));
  write_synthetic_sections(ctx, layout, synthetic);
  output_hooks(ctx).patch_sections(ctx, layout);

  build_file_header(ctx, layout);
  build_section_headers(ctx, layout);
  if (relocatable_output(ctx))
    assign_offsets(ctx.output_elf, OffsetStyle::Linker, output_hooks(ctx).shared_offset_rule()); // (no program headers)
  else
    build_program_headers(ctx, ctx.output_elf, layout.order);
}

namespace {

// Writes the output image piece by piece with writev(): no second copy of
// the image in memory.
class FileWriter {
public:
  explicit FileWriter(int fd) : fd_(fd) {}
  void add(std::span<const u8> bytes) {
    if (bytes.empty())
      return;
    iov_.push_back({const_cast<u8 *>(bytes.data()), bytes.size()});
    if (iov_.size() == kBatch)
      flush();
  }
  // False if a write failed.
  bool flush() {
    size_t first = 0;
    while (ok_ && first < iov_.size()) {
      ssize_t n = ::writev(fd_, iov_.data() + first, static_cast<int>(iov_.size() - first));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        ok_ = false;
        break;
      }
      // Skip what was written (a short write may end inside an entry).
      for (size_t left = static_cast<size_t>(n); left > 0;) {
        iovec &v = iov_[first];
        size_t step = std::min(left, v.iov_len);
        v.iov_base = static_cast<u8 *>(v.iov_base) + step;
        v.iov_len -= step;
        left -= step;
        if (v.iov_len == 0)
          first++;
      }
    }
    iov_.clear();
    return ok_;
  }

private:
  static constexpr size_t kBatch = 1024; // IOV_MAX on Linux
  int fd_;
  std::vector<iovec> iov_;
  bool ok_ = true;
};

} // namespace

// (writer.h) Batches of about kBatchBytes, copied in parallel: copying a
// large image into the page cache is memory-bound work that scales with
// cores, while write() and pwrite() of one file are serialized by the
// kernel.
bool write_mapped(const Parallelism &par, int fd, const std::vector<std::span<const u8>> &pieces, u64 total) {
  constexpr u64 kBatchBytes = 1u << 20;
  if (::posix_fallocate(fd, 0, static_cast<off_t>(total)) != 0)
    return false;
  void *map = ::mmap(nullptr, total, PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED)
    return false;
  u8 *base = static_cast<u8 *>(map);
  struct Batch {
    size_t first, end; // pieces [first, end)
    u64 offset;
  };
  std::vector<Batch> batches;
  u64 offset = 0, batch_bytes = 0;
  for (size_t i = 0; i < pieces.size(); i++) {
    if (batches.empty() || batch_bytes >= kBatchBytes) {
      batches.push_back({i, i, offset});
      batch_bytes = 0;
    }
    batches.back().end = i + 1;
    offset += pieces[i].size();
    batch_bytes += pieces[i].size();
  }
  par.for_each_index(batches.size(), [&](size_t b) {
    u8 *out = base + batches[b].offset;
    for (size_t i = batches[b].first; i < batches[b].end; i++)
      if (!pieces[i].empty()) {
        std::memcpy(out, pieces[i].data(), pieces[i].size());
        out += pieces[i].size();
      }
  });
  return ::munmap(map, total) == 0;
}

void commit_output(Context &ctx) {
  if (std::vector<u8> *memory = ctx.opts.embedded.output) { // the library API's output
    ElfImage image = elf_image(ctx.output_elf);
    memory->clear();
    for (std::span<const u8> piece : image.pieces)
      memory->insert(memory->end(), piece.begin(), piece.end());
    return;
  }
  const std::string &path = ctx.opts.output_file;
  std::string tmp = path + ".dlink-tmp";
  // (Read and write: mapping a file for writing needs both.)
  int fd = ::open(tmp.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    ctx.diag.fatal(fmt::format("Could not open output file '{}'", path));
  ElfImage image = elf_image(ctx.output_elf);
  u64 total = 0;
  for (std::span<const u8> piece : image.pieces)
    total += piece.size();
  bool written;
  // (From 8 MiB: below, a plain write is as fast. --dlink-map-output-at
  // moves the threshold for tests.)
  u64 map_at = ctx.opts.dlink_map_output_at.empty() ? u64{8} << 20
                                                     : std::strtoull(ctx.opts.dlink_map_output_at.c_str(), nullptr, 10);
  if (!ctx.par.serial() && total >= map_at && total > 0 && write_mapped(ctx.par, fd, image.pieces, total)) {
    written = true;
  } else {
    FileWriter writer(fd);
    for (std::span<const u8> piece : image.pieces)
      writer.add(piece);
    written = writer.flush();
  }
  if (::close(fd) != 0 || !written) {
    std::remove(tmp.c_str());
    ctx.diag.fatal(fmt::format("Could not write output file '{}'", path));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    ctx.diag.fatal(fmt::format("Could not open output file '{}'", path));
  }
}

} // namespace dlink
