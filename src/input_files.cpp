// Stage 1: reading inputs (input_files.h).
//
// Consumes the input files and -l/-L options of the command line; produces
// ctx.inputs, the relocatable cubins of the link in link order, plus what
// later stages need to know about the files they came from
// (ctx.link_binary_ids for --register-link-binaries, the host-reference
// lists for kernel pruning). Every rule here was measured on nvlink 13.0.88;
// docs/notes/inputs.md has the details and the commands to re-check them.
//
// How a file is read depends on its extension (the text after the last '.'
// of its base name) and then on its content:
//   no extension  ignored (even a host object or an archive)
//   .cubin        CUDA ELF, else fatal "cubin not a device elf?" (host ELF)
//                 or "cubin not an elf?"
//   .fatbin       fatbin container, else fatal "fatbin wrong format?"
//   .ptx          CUDA ELF, fatbin or PTX text (compiled with ptxas), else
//                 error "Binary format ... not recognized" + fatal
//   .o            CUDA ELF, host object or archive; anything else ignored
//   .so           archive; anything else (a shared library) ignored
//   other         host object or archive; anything else (a cubin too) ignored
// An empty file is ignored; a non-archive shorter than 56 bytes, a missing
// file or a directory is fatal "Could not open input file".
//
// Host objects contribute the first fatbin container of __nv_relfatbin (and
// nothing when they have none); from a fatbin nvlink takes one entry
// (select_fatbin_entry), and compiles it with ptxas when it is PTX.
// Archives: every member of a user archive is read (up to the first member
// that is not ELF); an archive whose file name contains "cudadevrt" is a
// system library (unless -keep-system-libraries): its members are read in
// order only while some global symbol is still undefined, which is how
// nvlink pulls members on demand ("every member before the last needed one"
// follows from it). Libraries from -l are read after all other inputs.
#include "input_files.h"

#include "dlink/archive.h"
#include "dlink/fatbin.h"
#include "dlink/host_object.h"
#include "input_prefetch.h"
#include "lto/lto.h"
#include "ptx_jit.h"
#include "registration.h"
#include "validate.h"

#include <sys/stat.h>
#include <zstd.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <unordered_map>

namespace dlink {

namespace {

using namespace inputs;

constexpr u8 kCudaOsAbi = 0x41;

std::string_view base_name(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Binary-compatible cubins: same SM, or an older SM nvlink accepts for the
// target (80 -> 86/89, 86 -> 89, 100 -> 103, 120 -> 121).
bool cubin_sm_usable(u32 cubin_sm, u32 target_sm) {
  if (cubin_sm == target_sm)
    return true;
  struct Pair {
    u32 from, to;
  };
  static constexpr Pair kPairs[] = {{80, 86}, {80, 89}, {86, 89}, {100, 103}, {120, 121}};
  for (const Pair &p : kPairs)
    if (p.from == cubin_sm && p.to == target_sm)
      return true;
  return false;
}

// A message line with nvlink's prefix that does not go through the error
// accounting (a first "fatal" line before the final one; nvlink's
// "Uncompress failed" for LZ4 payloads, which does not change the exit status).
void print_line(Diagnostics &d, std::string_view tag, std::string_view msg) {
  d.stream() << d.tool << ' ' << tag << " : " << msg;
  if (!d.report_arch.empty())
    d.stream() << " (target: " << d.report_arch << ")";
  d.stream() << '\n';
}

[[noreturn]] void fatal2(Diagnostics &d, std::string_view first, std::string_view second) {
  print_line(d, "fatal  ", first);
  d.fatal(second);
}


bool is_placeholder_name(std::string_view name) {
  return name.starts_with("__UFT") || name.starts_with("__UDT");
}


class InputReader {
public:
  explicit InputReader(Context &ctx) : ctx_(ctx) {}

  void run() {
    prefetch_.run(ctx_);
    for (const std::string &path : ctx_.opts.input_files)
      read_path(path);
    for (const std::string &lib : ctx_.opts.libraries)
      read_library(lib);
  }

private:
  Context &ctx_;
  std::set<std::pair<dev_t, ino_t>> archives_used_;
  NameSet defined_;
  // Global symbols referenced, each with the input that referenced it.
  std::vector<std::pair<std::string_view, const InputObject *>> referenced_;
  // Where the cubins read next come from (InputObject::origin; --map).
  InputOrigin origin_;
  std::string library_; // the -l name of the archive being read, if any
  Prefetch prefetch_;

  Diagnostics &diag() { return ctx_.diag; }

  // ---- files given by path ----

  // An input handed to the library API in memory takes the place of the
  // file of that name. Its identity for "the same archive is read once" is
  // its position among the memory inputs (device 0 is no real file's).
  bool read_memory_input(const std::string &path, struct stat &st, std::span<const u8> &bytes) {
    const auto &inputs = ctx_.opts.embedded.inputs;
    auto it = inputs.find(path);
    if (it == inputs.end())
      return false;
    st.st_dev = 0;
    st.st_ino = static_cast<ino_t>(std::distance(inputs.begin(), it)) + 1;
    bytes = it->second;
    return true;
  }

  void read_path(const std::string &path) {
    struct stat st {};
    std::span<const u8> bytes;
    if (const Prefetch::File *f = prefetch_.file(path); f && !ctx_.opts.embedded.inputs.count(path)) {
      st = f->st;
      bytes = f->bytes;
    } else if (!read_memory_input(path, st, bytes)) {
      if (::stat(path.c_str(), &st) != 0 || S_ISDIR(st.st_mode))
        diag().fatal(fmt::format(nvlink_msg::kCouldNotOpenInputFile, path));
      try {
        bytes = read_file_into_arena(ctx_.arena, path);
      } catch (const InputError &) {
        diag().fatal(fmt::format(nvlink_msg::kCouldNotOpenInputFile, path));
      }
    }
    if (bytes.empty())
      return;
    origin_ = InputOrigin{.file = path, .reason = "given on the command line"};
    const bool archive = is_archive(bytes);
    if (!archive && bytes.size() < kMinInputSize)
      diag().fatal(fmt::format(nvlink_msg::kCouldNotOpenInputFile, path));

    switch (classify_file(path, bytes)) {
    case FileKind::Ignored:
      return;
    case FileKind::CubinNotElf:
      diag().fatal("cubin not an elf?");
    case FileKind::CubinNotDevice:
      diag().fatal("cubin not a device elf?");
    case FileKind::NotFatbin:
      diag().fatal(nvlink_msg::kFatbinWrongFormat);
    case FileKind::PtxNotRecognized:
      diag().error(nvlink_msg::kBinaryFormatNotRecognized);
      diag().fatal(nvlink_msg::kFatbinaryError);
    case FileKind::Cubin:
      read_cubin_file(path, bytes);
      return;
    case FileKind::Fatbin:
      read_fatbin_file(path, bytes);
      return;
    case FileKind::PtxText:
      read_ptx_file(path, bytes);
      return;
    case FileKind::HostObject:
      read_host_object(path, bytes, false, is_cudadevrt_name(path));
      return;
    case FileKind::Archive:
      read_archive_file(path, bytes, st);
      return;
    }
  }

  void read_cubin_file(const std::string &path, std::span<const u8> bytes) {
    origin_.how = "relocatable cubin";
    ctx_.all_inputs_have_host_refs = false;
    ctx_.link_binary_ids.push_back(registration_id_for_path(path));
    lto::linked_input(ctx_, path, false);
    add_cubin(path, bytes, /*by_path=*/true);
  }

  // After an input error (e.g. a missing SM arch under -Werror) nvlink's
  // reader is left in an error state: the next host object or fatbin file
  // stops the link (cubins are still read).
  void stop_if_reader_failed(std::string_view message) {
    if (diag().has_errors())
      diag().fatal(message);
  }

  void read_fatbin_file(const std::string &path, std::span<const u8> bytes) {
    stop_if_reader_failed("elfLink fatbinary error");
    ctx_.all_inputs_have_host_refs = false;
    ctx_.link_binary_ids.push_back(registration_id_for_path(path));
    std::vector<FatbinEntry> entries = parse_fatbin(path, bytes);
    use_fatbin(path, entries, /*member=*/false);
  }

  // For targets before sm_90 nvlink compiles a PTX text file (its ptxas
  // messages, -Xptxas -v lines and failures appear as usual) and then links
  // nothing of it: no code, no symbols (a function only it defines stays
  // undefined), no --register-link-binaries line, and host-object kernel
  // pruning goes on as if the file were not there (measured on sm_75,
  // sm_80, sm_86 and sm_89 with PTX of any .target; sm_90 and newer link it;
  // docs/notes/inputs.md §8).
  void read_ptx_file(const std::string &path, std::span<const u8> bytes) {
    std::string_view text(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    text = text.substr(0, text.find('\0'));
    if (ctx_.arch.sm < 90) {
      jit_compile(text, "", path);
      return;
    }
    origin_.how = "PTX file compiled by ptxas";
    ctx_.all_inputs_have_host_refs = false;
    ctx_.link_binary_ids.push_back(registration_id_for_path(path));
    lto::linked_input(ctx_, path, false);
    add_cubin(path, jit_compile(text, "", path), false);
  }

  // ptxas's run for this PTX, as prefetched (or run now), reported.
  std::span<const u8> jit_compile(std::string_view ptx, std::string_view options,
                                  std::string_view what) {
    if (std::optional<PtxasRun> run = prefetch_.take_ptxas_run(ptx, options))
      return commit_ptxas_run(ctx_, *run, what);
    return jit_compile_ptx(ctx_, ptx, options, what);
  }

  // ---- host objects ----

  // `cudadevrt`: read from a cudadevrt archive or file (is_cudadevrt_name).
  void read_host_object(std::string_view name, std::span<const u8> bytes, bool member,
                        bool cudadevrt) {
    if (!member)
      stop_if_reader_failed("elfLink internal error");
    if (cudadevrt)
      lto::cudadevrt_seen(ctx_);
    HostObject ho;
    try {
      ho = dlink::read_host_object(bytes);
    } catch (const HostObjectError &) {
      if (member) {
        ctx_.all_inputs_have_host_refs = false;
        return; // nvlink skips unreadable archive members silently
      }
      fatal2(diag(), fmt::format(nvlink_msg::kCouldNotFindFatbin, name),
             nvlink_msg::kInternalError);
    }
    if (!ho.host_refs.present || !ho.is_relocatable()) {
      ctx_.all_inputs_have_host_refs = false;
    } else {
      // The lists of a cudadevrt object (an archive or host object file
      // whose name contains "cudadevrt", even with -keep-system-libraries)
      // do not switch host-reference pruning on; once another object's
      // lists have, its kernel patterns count like any others
      // (docs/notes/inputs.md §10).
      if (!cudadevrt)
        ctx_.host_refs_list_kernels |= ho.host_refs.lists_kernels();
      for (auto *list : {&ho.host_refs.kernels_external, &ho.host_refs.kernels_internal})
        ctx_.host_kernel_patterns.insert(ctx_.host_kernel_patterns.end(), list->begin(),
                                         list->end());
      for (auto *list : {&ho.host_refs.constant_external, &ho.host_refs.constant_internal})
        ctx_.host_constant_patterns.insert(ctx_.host_constant_patterns.end(), list->begin(),
                                           list->end());
    }
    // Executables and shared objects, and objects without __nv_relfatbin
    // (whole-program code in .nv_fatbin, plain host code), add nothing.
    if (!ho.is_relocatable() || !ho.has_relfatbin)
      return;
    // Every module id (an `ld -r` object has several), though only the
    // first container's code is read.
    if (ho.module_ids.empty())
      ctx_.link_binary_ids.push_back(registration_id_for_path(name));
    for (std::string_view id : ho.module_ids)
      ctx_.link_binary_ids.emplace_back(id);
    if (!is_fatbin(ho.relfatbin_to_eof))
      fatal2(diag(), fmt::format(nvlink_msg::kCouldNotFindFatbin, name),
             nvlink_msg::kInternalError);
    std::vector<FatbinEntry> entries = parse_fatbin(name, ho.relfatbin_to_eof);
    origin_.how = "host object";
    use_fatbin(name, entries, member);
  }

  // ---- fatbins ----

  std::vector<FatbinEntry> parse_fatbin(std::string_view name, std::span<const u8> bytes) {
    FatbinReadOptions options;
    options.first_container_only = true;
    options.decompress = false;
    try {
      return read_fatbin(ctx_.arena, bytes, options);
    } catch (const FatbinError &e) {
      switch (e.kind()) {
      case FatbinError::Kind::BadMagic:
        fatal2(diag(), fmt::format(nvlink_msg::kCouldNotFindFatbin, name),
               nvlink_msg::kInternalError);
      case FatbinError::Kind::BadVersion:
        diag().error(nvlink_msg::kBinaryFormatNotRecognized);
        diag().fatal(nvlink_msg::kFatbinaryError);
      default:
        // nvlink crashes on truncated headers; dlink reports them.
        diag().fatal(fmt::format("Corrupt fatbin in '{}': {}", name, e.what()));
      }
    }
  }

  void arch_not_found(std::string_view name, bool member) {
    if (member || ctx_.opts.suppress_arch_warning)
      return;
    diag().warning_always(fmt::format(nvlink_msg::kSmArchNotFound, ctx_.opts.arch_string, name));
  }

  void use_fatbin(std::string_view name, std::vector<FatbinEntry> &entries, bool member) {
    // -lto: dlink links the PTX (or cubin) of an object that also carries
    // LTO IR, as without -lto (lto/lto.h).
    const FatbinEntry *ir = ctx_.opts.lto ? lto::select_ltoir_entry(entries, ctx_.arch) : nullptr;
    const bool cudadevrt = is_cudadevrt_name(name);
    const FatbinEntry *chosen = select_fatbin_entry(entries, ctx_.arch);
    if (!chosen) {
      if (ir)
        lto::no_ptx_for_lto_input(ctx_, name, *ir);
      bool lto = false, other = false;
      for (const FatbinEntry &e : entries)
        (e.is_ltoir() ? lto : other) = true;
      if (lto && !other && !ctx_.opts.lto)
        diag().fatal(nvlink_msg::kLtoObjectsFound);
      arch_not_found(name, member);
      return;
    }
    FatbinEntry &entry = entries[static_cast<size_t>(chosen - entries.data())];
    if (!entry.decompressed && !entry.truncated && entry.compressed()) {
      if (std::optional<std::span<const u8>> payload = prefetch_.payload(entry.stored)) {
        entry.payload = *payload;
        entry.decompressed = true;
      }
    }
    try {
      decompress_fatbin_entry(ctx_.arena, entry);
    } catch (const FatbinError &e) {
      if (entry.lz4() && !entry.truncated) {
        // LZ4: one message, then the object counts as having no code.
        print_line(diag(), "error  ", nvlink_msg::kUncompressFailed);
        arch_not_found(name, member);
        return;
      }
      diag().error(nvlink_msg::kUncompressFailed);
      if (!zstd_content_smaller_than_declared(entry))
        diag().error(nvlink_msg::kUncompressFailed);
      diag().fatal(nvlink_msg::kFatbinaryError);
    }
    origin_.how = fmt::format("{}fatbin entry {} (sm_{})",
                              origin_.how.ends_with("host object") ? origin_.how + ", " : "",
                              entry.is_ptx() ? "PTX, compiled by ptxas" : "cubin", entry.sm);
    if (entry.is_ptx()) {
      if (!cudadevrt)
        lto::linked_input(ctx_, name, ir != nullptr);
      std::span<const u8> cubin = jit_compile(entry.ptx_text(), entry.ptxas_options, name);
      add_cubin(name, cubin, false);
      return;
    }
    check_entry_cubin(name, entry.payload);
    if (entry.payload.size() >= 18 && read_le<u16>(entry.payload.data() + 16) == ET_EXEC)
      return; // executable cubins in fatbins are not linked
    if (!cudadevrt)
      lto::linked_input(ctx_, name, ir != nullptr);
    add_cubin(name, entry.payload, false);
  }

  static bool zstd_content_smaller_than_declared(const FatbinEntry &entry);

  // nvlink's checks on the cubin of the selected ELF entry.
  void check_entry_cubin(std::string_view name, std::span<const u8> cubin) {
    if (cubin.size() < 16 || cubin[4] != 2)
      diag().fatal(fmt::format(nvlink_msg::kSizeDoesNotMatchTarget, name));
    if (cubin[7] != kCudaOsAbi) {
      diag().warning(fmt::format(nvlink_msg::kExpected64BitAddress, name));
      diag().fatal(fmt::format(nvlink_msg::kAbiDoesNotMatch, name));
    }
    if (cubin[8] != 7 && cubin[8] != 8)
      diag().fatal(fmt::format(nvlink_msg::kAbiDoesNotMatch, name));
    if (cubin.size() >= 52) {
      u32 sm = (read_le<u32>(cubin.data() + 48) >> 8) & 0xff;
      if (!cubin_sm_usable(sm, ctx_.arch.sm))
        diag().fatal(
            fmt::format(nvlink_msg::kArchDoesNotMatch, name, ctx_.arch.sm_name()));
    }
  }

  // ---- cubins ----

  // A relocatable cubin given by path links for its own SM, or for a newer
  // SM nvlink accepts it for (cubin_sm_usable) unless it is arch-specific
  // (an `a` build: .nv.compat attribute 0x09 set), which links only for its
  // own SM. A cubin older than sm_100 for an sm_100+ target draws nvlink's
  // "Output is limited" warning before the mismatch (measured, not silenced
  // by -w, an error under -Werror).
  void check_cubin_arch(const InputObject &obj) {
    const u32 sm = obj.elf.sm(), target = ctx_.arch.sm;
    bool usable = cubin_sm_usable(sm, target);
    if (usable && sm != target && arch_specific(obj))
      usable = false;
    if (usable)
      return;
    if (sm < 100 && target >= 100)
      diag().warning_always(fmt::format(
          "Output is limited to run on SM Arch '{}' only due to limitations in input file {}", target,
          obj.name));
    diag().fatal(fmt::format(nvlink_msg::kArchDoesNotMatch, obj.name, ctx_.arch.name()));
  }

  static bool arch_specific(const InputObject &obj) {
    auto compat = obj.elf.find_section(".nv.compat");
    if (!compat)
      return false;
    try {
      for (const EiRecord &r : parse_eiattrs(obj.elf.sections[*compat].data))
        if (r.attr == 0x09 && r.format != EIFMT_SVAL)
          return (r.value & 0xff) != 0;
    } catch (const InputError &) {
    }
    return false;
  }

  void add_cubin(std::string_view name, std::span<const u8> bytes, bool by_path) {
    auto *obj = ctx_.arena.make<InputObject>();
    obj->name = std::string(name);
    obj->origin = origin_;
    obj->bytes = bytes;
    if (std::optional<ParsedCubin> parsed = prefetch_.take_cubin(bytes)) {
      obj->elf = std::move(parsed->elf);
      obj->symbols = std::move(parsed->symbols);
    } else {
      try {
        obj->elf = read_elf(bytes, &ctx_.arena); // (small sections copied)
      } catch (const InputError &) {
        // nvlink ignores cubins whose headers point past the end of the file.
        return;
      }
      try {
        auto symtab = obj->elf.find_section(".symtab");
        if (!symtab)
          diag().fatal(fmt::format("symsec not found in '{}'", obj->name));
        obj->symbols = read_symbols(obj->elf, obj->elf.sections[*symtab]);
      } catch (const InputError &e) {
        diag().fatal(fmt::format("Corrupt input file '{}': {}", obj->name, e.what()));
      }
    }
    if (by_path) {
      if (obj->elf.type != ET_REL)
        diag().fatal(fmt::format("Input file '{}' is not a relocatable cubin; linking "
                                 "executable cubins is not supported",
                                 obj->name));
      check_cubin_arch(*obj);
    }
    obj->index = static_cast<u32>(ctx_.inputs.size());
    ctx_.inputs.push_back(obj);
    for (const ElfSymbol &s : obj->symbols) {
      if (s.bind() == STB_LOCAL || s.type() == STT_SECTION || s.name.empty())
        continue;
      if (s.shndx != SHN_UNDEF)
        defined_.insert(s.name);
      else if (s.bind() == STB_GLOBAL && !is_driver_function(s.name) &&
               !is_placeholder_name(s.name) &&
               !s.is_shared_variable()) // extern __shared__: resolved by layout, never by archives
        referenced_.emplace_back(s.name, obj);
    }
  }

  // The first referenced symbol still undefined, if any.
  const std::pair<std::string_view, const InputObject *> *first_undefined() const {
    for (const auto &r : referenced_)
      if (!defined_.count(r.first))
        return &r;
    return nullptr;
  }
  bool have_undefined() const { return first_undefined() != nullptr; }

  // ---- archives ----

  [[noreturn]] void archive_error(const ArchiveError &e) {
    switch (e.kind()) {
    case ArchiveError::Kind::LongnamesMissing:
      fatal2(diag(), nvlink_msg::kLongnamesHeaderNotFound, nvlink_msg::kInternalError);
    case ArchiveError::Kind::BadLongnameOffset:
      fatal2(diag(), nvlink_msg::kMemoryAllocationFailure, nvlink_msg::kInternalError);
    case ArchiveError::Kind::MemberOpenFailed:
      fatal2(diag(), fmt::format(nvlink_msg::kCouldNotOpenInputFile, e.member()),
             nvlink_msg::kInternalError);
    case ArchiveError::Kind::MemberIsDirectory:
      diag().fatal(nvlink_msg::kMemoryAllocationFailure);
    default:
      fatal2(diag(), nvlink_msg::kUnexpectedArchiveFormat, nvlink_msg::kInternalError);
    }
  }

  std::vector<ArchiveMember> members_of(const std::string &path, std::span<const u8> bytes) {
    try {
      return read_archive(ctx_.arena, bytes, path);
    } catch (const ArchiveError &e) {
      archive_error(e);
    }
  }

  void read_archive_file(const std::string &path, std::span<const u8> bytes,
                         const struct stat &st) {
    std::vector<ArchiveMember> members = members_of(path, bytes);
    use_archive(path, members, st);
  }

  void use_archive(const std::string &path, const std::vector<ArchiveMember> &members,
                   const struct stat &st) {
    // The same archive file (however it is named) is read only once.
    if (!archives_used_.insert({st.st_dev, st.st_ino}).second)
      return;
    if (is_cudadevrt_name(path))
      lto::cudadevrt_seen(ctx_);
    const bool system = is_cudadevrt_name(path) && !ctx_.opts.keep_system_libraries;
    for (const ArchiveMember &m : members) {
      const auto *pending = system ? first_undefined() : nullptr; // (user archives: every member)
      if (system && !pending)
        break;
      std::string name = fmt::format("{}:{}", path, m.name);
      origin_ = InputOrigin{.file = path, .member = std::string(m.name)};
      if (system) {
        origin_.pending_symbol = std::string(pending->first);
        origin_.pending_referrer = pending->second->name;
        origin_.reason = fmt::format(
            "system library member read while '{}' (referenced by {}) was undefined",
            pending->first, pending->second->name);
      } else {
        origin_.every_member = true;
        origin_.reason = "member of a user archive (nvlink loads every member of a device archive)";
      }
      if (!library_.empty())
        origin_.reason += fmt::format("; archive found for -l{}", library_);
      if (is_cuda_elf(m.data)) {
        ctx_.all_inputs_have_host_refs = false; // cubins in archives are not linked
        continue;
      }
      if (is_host_object_file(m.data))
        read_host_object(name, m.data, /*member=*/true, is_cudadevrt_name(path));
      else
        ctx_.all_inputs_have_host_refs = false;
    }
  }

  // ---- -l ----

  void skipping_incompatible(const std::string &file, const std::string &lib) {
    std::string msg = fmt::format(nvlink_msg::kSkippingIncompatible, file, lib);
    if (diag().warnings_as_errors) {
      diag().error(msg);
      diag().fatal(nvlink_msg::kInternalError);
    }
    diag().warning_always(msg);
  }

  std::vector<std::string> library_dirs() const {
    std::vector<std::string> dirs = ctx_.opts.library_paths;
    if (const char *lp = std::getenv("LIBRARY_PATH")) {
      std::stringstream ss(lp);
      std::string dir;
      while (std::getline(ss, dir, ':'))
        if (!dir.empty())
          dirs.push_back(dir);
    }
    return dirs;
  }

  void read_library(const std::string &lib) {
    for (std::string dir : library_dirs()) {
      while (dir.size() > 1 && dir.back() == '/')
        dir.pop_back();
      std::string file = (dir == "/" ? std::string() : dir) + "/lib" + lib + ".a";
      struct stat st {};
      if (::stat(file.c_str(), &st) != 0)
        continue;
      if (S_ISDIR(st.st_mode))
        diag().fatal(nvlink_msg::kMemoryAllocationFailure);
      std::span<const u8> bytes;
      if (std::optional<std::span<const u8>> mapped = map_file(ctx_.arena, file)) {
        bytes = *mapped;
      } else {
        try {
          bytes = read_file_into_arena(ctx_.arena, file);
        } catch (const InputError &) {
          continue;
        }
      }
      if (bytes.size() <= kArchiveMagic.size()) {
        skipping_incompatible(file, lib);
        continue;
      }
      if (!is_archive(bytes))
        fatal2(diag(), nvlink_msg::kUnexpectedArchiveFormat, nvlink_msg::kInternalError);
      std::vector<ArchiveMember> members = members_of(file, bytes);
      bool any_host = false;
      for (const ArchiveMember &m : members)
        any_host |= is_host_elf(m.data);
      if (!any_host) {
        skipping_incompatible(file, lib);
        continue;
      }
      library_ = lib;
      use_archive(file, members, st);
      library_.clear();
      return;
    }
  }
};

bool InputReader::zstd_content_smaller_than_declared(const FatbinEntry &entry) {
  // nvlink prints "Uncompress failed" once when the stream decodes to fewer
  // bytes than the entry header declares, twice otherwise.
  if (entry.lz4() || entry.truncated || entry.stored.empty())
    return false;
  unsigned long long content = ZSTD_getFrameContentSize(entry.stored.data(), entry.stored.size());
  return content != ZSTD_CONTENTSIZE_ERROR && content != ZSTD_CONTENTSIZE_UNKNOWN &&
         content < entry.uncompressed_size;
}

} // namespace

bool is_cudadevrt_name(std::string_view path) {
  return base_name(path).find("cudadevrt") != std::string_view::npos;
}

void read_inputs(Context &ctx) {
  InputReader(ctx).run();
  lto::finish_inputs(ctx);
  precheck_inputs(ctx); // (computed here, in parallel; reported by validate_inputs)
}

} // namespace dlink
