// dlink-dump: a readable dump of a cubin (CUDA device ELF), or of the
// cubins inside a fatbin, a host object or an archive.
//
//   dlink-dump FILE [--section NAME]... [--hex] [--res-usage]
//
// FILE is a cubin, a fatbin, a host object (its __nv_relfatbin and
// .nv_fatbin containers, every container) or an archive (every member):
// each cubin found is dumped under a heading that says where it is. PTX
// entries are listed with their ptxas options; LTO-IR entries are listed.
// --res-usage prints, instead of the full dump, each cubin's resources per
// function as `cuobjdump -res-usage` does (REG, STACK, SHARED, LOCAL,
// CONSTANT[N] ...; docs/explain-dlink-dump.md).
//
// Prints the ELF header with e_flags decoded, program headers, the section
// table with CUDA section types by name, then the decoded contents of every
// table section: symbols (CUDA types and st_other bits decoded), relocations
// by R_CUDA/R_MERCURY name with symbol names, EIATTR records of .nv.info*,
// .nv.merc.nv.info* and .nv.compat with decoded payloads, notes (cuinfo,
// tkinfo strings), .nv.callgraph blocks and .nv.prototype entries. With
// --section only the named sections are shown (string tables are listed
// string by string then); --hex adds hex dumps of section bytes.
//
// Malformed input never crashes the tool: a file that cannot be parsed at
// all prints an error; a section whose contents cannot be decoded prints an
// error in place and the dump continues. Either way the exit status is 1.
#include "dlink/archive.h"
#include "dlink/arena.h"
#include "dlink/eiattr.h"
#include "dlink/elf.h"
#include "dlink/fatbin.h"
#include "dlink/host_object.h"
#include "explain/cubin_resources.h"
#include "elf/cubin_text.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>

using namespace dlink;

namespace {

class Dumper {
public:
  Dumper(const ElfFile &file, std::vector<std::string> only, bool hex)
      : f_(file), only_(only.begin(), only.end()), hex_(hex) {}

  int run() {
    if (!only_.empty()) {
      for (const auto &name : only_)
        if (!f_.find_section(name)) {
          fmt::print(stderr, "dlink-dump: error: no section named '{}'\n", name);
          failed_ = true;
        }
    } else {
      print_header();
      print_segments();
      print_section_table();
    }
    for (u32 i = 1; i < f_.sections.size(); i++) {
      const ElfSection &sec = f_.sections[i];
      if (!only_.empty() && !only_.count(std::string(sec.name)))
        continue;
      try {
        print_contents(i, sec);
      } catch (const std::exception &e) {
        fmt::print("  error: {}\n", e.what());
        failed_ = true;
      }
    }
    std::fflush(stdout);
    return failed_ ? 1 : 0;
  }

private:
  void print_header() {
    const auto &id = f_.ident;
    fmt::print("ELF header:\n");
    fmt::print("  ident:      class {} data {} version {} osabi 0x{:02x} abiversion {}\n", id[4],
               id[5], id[6], id[7], id[8]);
    fmt::print("  type:       {} ({})\n", elf_type_name(f_.type), f_.type);
    fmt::print("  machine:    {}{}\n", f_.machine, f_.machine == EM_CUDA ? " (EM_CUDA)" : "");
    fmt::print("  version:    {}\n", f_.version);
    fmt::print("  entry:      0x{:x}\n", f_.entry);
    fmt::print("  phoff:      0x{:x}\n", f_.phoff);
    fmt::print("  shoff:      0x{:x}\n", f_.shoff);
    fmt::print("  flags:      0x{:08x}  {}\n", f_.flags, describe_e_flags(f_.flags));
    fmt::print("  ehsize {}  phentsize {}  phnum {}  shentsize {}  shnum {}  shstrndx {}\n",
               f_.ehsize, f_.phentsize, f_.segments.size(), f_.shentsize, f_.sections.size(),
               f_.shstrndx);
    fmt::print("\n");
  }

  void print_segments() {
    if (f_.segments.empty())
      return;
    fmt::print("Program headers:\n");
    fmt::print("  {:>2} {:<7} {:<4} {:>8} {:>8} {:>8} {:>8} {:>8} {:>5}  sections\n", "#",
               "type", "flg", "offset", "vaddr", "paddr", "filesz", "memsz", "align");
    for (size_t i = 0; i < f_.segments.size(); i++) {
      const ElfProgramHeader &p = f_.segments[i];
      std::string covered;
      for (const auto &sec : f_.sections)
        if (occupies_file_space(sec) && sec.size && sec.offset >= p.offset &&
            sec.offset + sec.size <= p.offset + p.filesz)
          covered += " " + std::string(sec.name);
      if (f_.phoff >= p.offset && f_.phoff < p.offset + std::max(p.filesz, u64(1)) && p.filesz)
        covered += " [program headers]";
      fmt::print("  {:>2} {:<7} {:<4} {:>8x} {:>8x} {:>8x} {:>8x} {:>8x} {:>5x} {}\n", i,
                 segment_type_name(p.type), segment_flags_string(p.flags), p.offset, p.vaddr,
                 p.paddr, p.filesz, p.memsz, p.align, covered);
    }
    fmt::print("\n");
  }

  void print_section_row(u32 i, const ElfSection &sec) {
    fmt::print("  {:>3} {:<40} {:<22} {:>10x} {:<5} {:>8x} {:>8x} {:>4} {:>4} {:>4x} {:>3x}\n", i,
               sec.name, section_type_name(sec.type), sec.flags, section_flags_string(sec.flags),
               sec.offset, sec.size, sec.link, sec.info, sec.addralign, sec.entsize);
  }

  void print_section_table() {
    fmt::print("Sections:\n");
    fmt::print("  {:>3} {:<40} {:<22} {:>10} {:<5} {:>8} {:>8} {:>4} {:>4} {:>4} {:>3}\n", "#",
               "name", "type", "flags", "", "offset", "size", "link", "info", "algn", "es");
    for (u32 i = 0; i < f_.sections.size(); i++)
      print_section_row(i, f_.sections[i]);
    fmt::print("\n");
  }

  void title(u32 i, const ElfSection &sec, std::string_view what) {
    fmt::print("{} [{}] {} ({}, {} bytes):\n", what, i, sec.name, section_type_name(sec.type),
               sec.size);
  }

  void print_contents(u32 i, const ElfSection &sec) {
    bool shown = true;
    if (!only_.empty()) {
      fmt::print("Section header:\n");
      print_section_row(i, sec);
    }
    if (is_symtab_section(sec)) {
      title(i, sec, "Symbols");
      print_symbols(sec);
    } else if (is_reloc_section(sec)) {
      title(i, sec, "Relocations");
      print_relocs(sec);
    } else if (is_eiattr_section(sec)) {
      title(i, sec, "EIATTR records");
      print_eiattrs(sec);
    } else if (sec.type == SHT_NOTE) {
      title(i, sec, "Notes");
      for (const auto &note : read_notes(sec))
        for (const auto &line : format_note(note))
          fmt::print("  {}\n", line);
    } else if (sec.type == SHT_CUDA_CALLGRAPH) {
      title(i, sec, "Call graph");
      for (const auto &line : format_callgraph(f_, sec))
        fmt::print("  {}\n", line);
    } else if (sec.type == SHT_CUDA_PROTOTYPE) {
      title(i, sec, "Prototypes");
      for (const auto &line : format_prototypes(f_, sec))
        fmt::print("  {}\n", line);
    } else if (sec.type == SHT_STRTAB && !only_.empty()) {
      title(i, sec, "Strings");
      print_strings(sec);
    } else {
      shown = false;
    }
    if (hex_ && !sec.data.empty()) {
      if (!shown)
        title(i, sec, "Section");
      fmt::print("  hex (file offset 0x{:x}):\n", sec.offset);
      for (const auto &line : hex_dump(sec.data))
        fmt::print("    {}\n", line);
      shown = true;
    }
    if (shown)
      fmt::print("\n");
  }

  void print_symbols(const ElfSection &sec) {
    auto syms = read_symbols(f_, sec);
    fmt::print("  sh_info {} (1 + index of the last LOCAL symbol)\n", sec.info);
    fmt::print("  {:>4} {:<7} {:<13} {:<22} {:<28} {}\n", "#", "bind", "type", "other",
               "section", "value/size/name");
    for (size_t k = 0; k < syms.size(); k++)
      fmt::print("  {:>4} {}\n", k, format_symbol(f_, syms[k]));
  }

  SymbolNamer namer_for(const ElfSection &sec) {
    const ElfSection *symtab = linked_symtab(f_, sec);
    if (!symtab)
      return make_symbol_namer({});
    return make_symbol_namer(read_symbols(f_, *symtab));
  }

  void print_relocs(const ElfSection &sec) {
    auto relocs = read_relocs(sec);
    bool rela = is_rela_section(sec);
    std::string target =
        sec.info < f_.sections.size() ? std::string(f_.sections[sec.info].name) : "?";
    fmt::print("  target section {} ({}), symtab {}\n", sec.info, target, sec.link);
    SymbolNamer namer = namer_for(sec);
    for (size_t k = 0; k < relocs.size(); k++)
      fmt::print("  {:>4} {}\n", k, format_reloc(relocs[k], rela, namer));
  }

  void print_eiattrs(const ElfSection &sec) {
    bool compat = sec.type == SHT_CUDA_COMPAT;
    SymbolNamer namer = compat ? make_symbol_namer({}) : namer_for(sec);
    u64 pos = 0;
    for (const auto &rec : parse_eiattrs(sec.data)) {
      fmt::print("  {:>4x} {}\n", pos, format_eirecord(rec, compat, namer));
      pos += rec.encoded_size();
    }
  }

  void print_strings(const ElfSection &sec) {
    size_t pos = 0;
    while (pos < sec.data.size()) {
      const char *p = reinterpret_cast<const char *>(sec.data.data()) + pos;
      size_t len = strnlen(p, sec.data.size() - pos);
      fmt::print("  {:>6x} \"{}\"\n", pos, std::string_view(p, len));
      pos += len + 1;
    }
  }

  const ElfFile &f_;
  std::set<std::string> only_;
  bool hex_;
  bool failed_ = false;
};

} // namespace

namespace {

struct DumpOptions {
  std::vector<std::string> only;
  bool hex = false;
  bool res_usage = false;
};

// Dumps whatever `bytes` holds; `where` names it in headings. Returns the
// exit status (1: something could not be decoded).
int dump_any(std::span<const u8> bytes, const std::string &where, const DumpOptions &opts, int depth);

int dump_cubin(std::span<const u8> bytes, const std::string &where, const DumpOptions &opts) {
  try {
    ElfFile file = read_elf(bytes);
    if (opts.res_usage) {
      CubinResources res = analyze_cubin_resources(file);
      fmt::print("arch = sm_{}\n{}\n", res.sm, res.executable ? "executable" : "relocatable");
      fmt::print("{}", format_res_usage(res));
      return res.notes.empty() ? 0 : 1;
    }
    return Dumper(file, opts.only, opts.hex).run();
  } catch (const std::exception &e) {
    std::fflush(stdout);
    fmt::print(stderr, "dlink-dump: error: {}: {}\n", where, e.what());
    return 1;
  }
}

int dump_fatbin(std::span<const u8> bytes, const std::string &where, const DumpOptions &opts, int depth) {
  Arena arena;
  std::vector<FatbinEntry> entries;
  try {
    entries = read_fatbin(arena, bytes, FatbinReadOptions{.first_container_only = false, .decompress = false});
  } catch (const std::exception &e) {
    fmt::print(stderr, "dlink-dump: error: {}: fatbin: {}\n", where, e.what());
    return 1;
  }
  int status = 0;
  for (size_t i = 0; i < entries.size(); i++) {
    FatbinEntry &e = entries[i];
    std::string kind = e.is_elf() ? "ELF" : e.is_ptx() ? "PTX" : e.is_ltoir() ? "LTO-IR" : fmt::format("kind {}", e.kind);
    std::string title = fmt::format("{} [fatbin container {} entry {}: {} {}{}]", where, e.container_index, i,
                                    kind, e.arch_name(), e.compressed() ? (e.lz4() ? ", LZ4" : ", zstd") : "");
    fmt::print("==== {}\n", title);
    try {
      decompress_fatbin_entry(arena, e);
    } catch (const std::exception &x) {
      fmt::print("  error: {}\n\n", x.what());
      status = 1;
      continue;
    }
    if (e.is_elf()) {
      status |= dump_any(e.payload, title, opts, depth + 1);
    } else if (e.is_ptx()) {
      std::string_view ptx = e.ptx_text();
      fmt::print("  PTX, {} bytes, {} lines; ptxas options \"{}\"\n\n", ptx.size(),
                 std::count(ptx.begin(), ptx.end(), '\n'), e.ptxas_options);
    } else {
      fmt::print("  {} bytes{}\n\n", e.payload.size(),
                 e.cicc_options.empty() ? "" : fmt::format("; options \"{}\"", e.cicc_options));
    }
  }
  return status;
}

int dump_host_object(std::span<const u8> bytes, const std::string &where, const DumpOptions &opts, int depth) {
  HostObject ho;
  try {
    ho = read_host_object(bytes);
  } catch (const std::exception &e) {
    fmt::print(stderr, "dlink-dump: error: {}: host object: {}\n", where, e.what());
    return 1;
  }
  if (!opts.res_usage) {
    fmt::print("Host object {}: machine {}, {}\n", where, ho.machine, ho.is_relocatable() ? "relocatable" : "not relocatable");
    for (std::string_view id : ho.module_ids)
      fmt::print("  __nv_module_id \"{}\"\n", id);
    if (ho.host_refs.present) {
      auto list = [](std::string_view what, const std::vector<std::string_view> &v) {
        for (std::string_view n : v)
          fmt::print("  {} {}\n", what, n);
      };
      list(".nvHRKE", ho.host_refs.kernels_external);
      list(".nvHRKI", ho.host_refs.kernels_internal);
      list(".nvHRDE", ho.host_refs.device_external);
      list(".nvHRDI", ho.host_refs.device_internal);
      list(".nvHRCE", ho.host_refs.constant_external);
      list(".nvHRCI", ho.host_refs.constant_internal);
    }
    if (!ho.has_relfatbin && !ho.has_nv_fatbin)
      fmt::print("  no device code (__nv_relfatbin, .nv_fatbin)\n");
    fmt::print("\n");
  }
  int status = 0;
  if (ho.has_relfatbin)
    status |= dump_fatbin(ho.relfatbin, where + " __nv_relfatbin", opts, depth + 1);
  if (ho.has_nv_fatbin)
    status |= dump_fatbin(ho.nv_fatbin, where + " .nv_fatbin", opts, depth + 1);
  return status;
}

int dump_archive(std::span<const u8> bytes, const std::string &where, const DumpOptions &opts, int depth) {
  Arena arena;
  std::vector<ArchiveMember> members;
  try {
    members = read_archive(arena, bytes, where,
                           ArchiveReadOptions{.thin_base = ArchiveReadOptions::ThinBase::ArchiveDir,
                                              .stop_at_non_elf = false});
  } catch (const std::exception &e) {
    fmt::print(stderr, "dlink-dump: error: {}: archive: {}\n", where, e.what());
    return 1;
  }
  int status = 0;
  for (const ArchiveMember &m : members) {
    std::string name = fmt::format("{}:{}", where, m.name);
    if (!m.is_elf()) {
      if (!opts.res_usage)
        fmt::print("==== {} (not ELF: skipped)\n\n", name);
      continue;
    }
    fmt::print("==== {}\n", name);
    status |= dump_any(m.data, name, opts, depth + 1);
  }
  return status;
}

int dump_any(std::span<const u8> bytes, const std::string &where, const DumpOptions &opts, int depth) {
  if (depth > 8) {
    fmt::print(stderr, "dlink-dump: error: {}: nested too deeply\n", where);
    return 1;
  }
  if (is_archive(bytes))
    return dump_archive(bytes, where, opts, depth);
  if (is_fatbin(bytes))
    return dump_fatbin(bytes, where, opts, depth);
  if (bytes.size() >= 20 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F' &&
      is_host_elf(bytes))
    return dump_host_object(bytes, where, opts, depth);
  return dump_cubin(bytes, where, opts);
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"Readable dump of a CUDA cubin, or of the cubins in a fatbin, host object or archive"};
  std::string path;
  DumpOptions opts;
  app.add_option("file", path, "cubin, fatbin, host object or archive to dump")->required();
  app.add_option("--section", opts.only, "only dump the named section (repeatable)");
  app.add_flag("--hex", opts.hex, "add hex dumps of section bytes");
  app.add_flag("--res-usage", opts.res_usage, "per-function resources, like cuobjdump -res-usage");
  CLI11_PARSE(app, argc, argv);

  std::ifstream in(path, std::ios::binary);
  if (!in) {
    fmt::print(stderr, "dlink-dump: error: cannot open '{}'\n", path);
    return 1;
  }
  std::vector<u8> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  int status = dump_any(bytes, path, opts, 0);
  std::fflush(stdout);
  return status;
}
