// Stage 1: reading inputs.
//
// Consumes the input file names of the command line; produces
// ctx.inputs, the relocatable cubins of the link in link order. Inputs are
// recognised by content, as nvlink does: a cubin renamed to .o still links,
// files shorter than an ELF header cannot be opened, and longer files of
// unknown content are ignored. File bytes are copied into the arena so every
// later stage can keep spans into them.
#include "input_files.h"

#include <fstream>
#include <iterator>

namespace dlink {

namespace {

// nvlink treats inputs shorter than this as unreadable.
constexpr size_t kMinInputSize = 56;

std::optional<std::span<const u8>> load_file(Arena &arena, const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::vector<char> buf((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad())
    return std::nullopt;
  return arena.copy({reinterpret_cast<const u8 *>(buf.data()), buf.size()});
}

void check_cubin_arch(Context &ctx, const InputObject &obj) {
  u32 sm = obj.elf.sm();
  if (sm != ctx.arch.sm || (obj.elf.flags & 0x00ff0000) != 0)
    ctx.diag.fatal(
        fmt::format("Input file '{}' arch does not match target '{}'", obj.name, ctx.arch.sm_name()));
}

void add_cubin(Context &ctx, std::string name, std::span<const u8> bytes) {
  auto *obj = ctx.arena.make<InputObject>();
  obj->name = std::move(name);
  obj->bytes = bytes;
  try {
    obj->elf = read_elf(bytes);
    auto symtab = obj->elf.find_section(".symtab");
    if (!symtab)
      ctx.diag.fatal(fmt::format("symsec not found in '{}'", obj->name));
    obj->symbols = read_symbols(obj->elf, obj->elf.sections[*symtab]);
  } catch (const InputError &e) {
    ctx.diag.fatal(fmt::format("Corrupt input file '{}': {}", obj->name, e.what()));
  }
  if (obj->elf.type != ET_REL)
    ctx.diag.fatal(fmt::format("Input file '{}' is not a relocatable cubin; linking executable "
                               "cubins is not supported",
                               obj->name));
  check_cubin_arch(ctx, *obj);
  obj->index = static_cast<u32>(ctx.inputs.size());
  ctx.inputs.push_back(obj);
}

bool starts_with(std::span<const u8> bytes, std::string_view magic) {
  return bytes.size() >= magic.size() && std::memcmp(bytes.data(), magic.data(), magic.size()) == 0;
}

} // namespace

void read_inputs(Context &ctx) {
  for (const std::string &path : ctx.opts.input_files) {
    auto bytes = load_file(ctx.arena, path);
    if (!bytes || bytes->size() < kMinInputSize)
      ctx.diag.fatal(fmt::format("Could not open input file '{}'", path));
    if (is_cuda_elf(*bytes)) {
      add_cubin(ctx, path, *bytes);
      continue;
    }
    if (starts_with(*bytes, "\x7f"
                            "ELF") ||
        starts_with(*bytes, "!<arch>\n") || starts_with(*bytes, "!<thin>\n") ||
        starts_with(*bytes, "\x50\xed\x55\xba") || path.ends_with(".ptx"))
      ctx.diag.fatal(fmt::format("Input file '{}': host objects, archives, fatbins and PTX "
                                 "inputs are not supported by dlink yet",
                                 path));
    // nvlink silently ignores inputs of unknown content.
  }
}

} // namespace dlink
