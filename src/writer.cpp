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
#include "pass_timer.h"

#include <algorithm>
#include <cstdio>

#include <cerrno>
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

namespace dlink {

void write_output(Context &ctx) {
  StepTimer timer(ctx, "write_output");
  OutputLayout layout;
  drop_empty_sections(ctx);
  order_sections(ctx, layout);
  order_symbols(ctx, layout);
  timer.step("order");
  build_string_tables(ctx, layout);
  timer.step("strings");

  // Section bytes: the metadata (which adds .strtab strings), then the
  // tables.
  SyntheticSections synthetic = metadata_sections(ctx, layout);
  SyntheticSections tables = table_sections(ctx, layout);
  for (auto &t : tables)
    synthetic.push_back(std::move(t));
  timer.step("prepare_tables");
  write_synthetic_sections(ctx, layout, synthetic);
  output_hooks(ctx).patch_sections(ctx, layout);
  timer.step("tables");

  build_file_header(ctx, layout);
  build_section_headers(ctx, layout);
  if (relocatable_output(ctx))
    assign_offsets(ctx.output_elf, OffsetStyle::Linker, output_hooks(ctx).shared_offset_rule()); // (no program headers)
  else
    build_program_headers(ctx, ctx.output_elf, layout.order);
  timer.step("headers");
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
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    ctx.diag.fatal(fmt::format("Could not open output file '{}'", path));
  ElfImage image = elf_image(ctx.output_elf);
  // A large image's blocks are reserved in one step first: writing it then
  // allocates nothing (measured on the 16-core machine, plain 1000 TUs: 29-35
  // ms instead of 46-51; docs/performance.md). Where the file system cannot,
  // the writes allocate as they go.
  u64 total = 0;
  for (std::span<const u8> piece : image.pieces)
    total += piece.size();
  if (total >= (u64{8} << 20))
    (void)::posix_fallocate(fd, 0, static_cast<off_t>(total));
  FileWriter writer(fd);
  for (std::span<const u8> piece : image.pieces)
    writer.add(piece);
  bool written = writer.flush();
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
