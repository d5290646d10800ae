// --map=FILE: the link map (docs/explain-map.md).
//
// Plain text, one fact per line, in a fixed order (link order, section
// index order, symbol-table order), no addresses of the linker's own memory
// and no timestamps: two links of the same inputs give the same map, and a
// diff of two maps shows what changed. Sections:
//   Inputs            each input in link order: where it came from, how it
//                     was read, why it was loaded
//   Output sections   index, file offset, size, alignment, type, name, and
//                     the input sections merged into it (input, section,
//                     offset in the output section, size)
//   Symbols           .symtab in index order: value, size, binding, type,
//                     section, name, the input that defined it
//   Removed           functions dead-code elimination removed (and which
//                     kernel set decided), variables
//   Weak definitions  every weak symbol defined more than once: the copy
//                     kept and the copies that lost
#include "explain/explain.h"

#include "dead_code.h"
#include "dlink/eiattr.h"

#include "elf/cubin_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

namespace dlink {

namespace {

std::string input_label(const InputObject &obj) { return fmt::format("#{} {}", obj.index, obj.name); }

std::string filter_description(const Context &ctx) {
  KernelFilter f = kernel_filter(ctx);
  std::string patterns;
  for (const std::string &p : f.patterns)
    patterns += (patterns.empty() ? "" : ", ") + p;
  switch (f.mode) {
  case KernelFilter::Mode::All:
    return "every kernel is a root (no -kernels-used, no host-reference pruning)";
  case KernelFilter::Mode::KernelsUsed:
    return fmt::format("roots: kernels matching -kernels-used [{}]", patterns);
  case KernelFilter::Mode::HostReferences:
    return fmt::format("roots: kernels the host objects reference (.nvHRKE/.nvHRKI) [{}]", patterns);
  }
  return "";
}

void write_inputs(const Context &ctx, std::string &out) {
  out += "Inputs (link order)\n";
  if (ctx.inputs.empty())
    out += "  (none)\n";
  for (const InputObject *obj : ctx.inputs) {
    const InputOrigin &o = obj->origin;
    out += fmt::format("  {}\n", input_label(*obj));
    if (!o.file.empty())
      out += fmt::format("      file:   {}{}\n", o.file, o.member.empty() ? "" : " (archive)");
    if (!o.member.empty())
      out += fmt::format("      member: {}\n", o.member);
    if (!o.how.empty())
      out += fmt::format("      read:   {}\n", o.how);
    if (!o.reason.empty())
      out += fmt::format("      why:    {}\n", o.reason);
  }
  out += "\n";
}

// Output sections of the image (after write_output), or of the merge so far.
void write_sections(const Context &ctx, bool image, std::string &out) {
  // Input sections merged into each output section.
  struct Piece {
    const InputObject *obj;
    u32 index;
    u64 offset;
  };
  std::map<const OutputSection *, std::vector<Piece>> pieces;
  for (const InputObject *obj : ctx.inputs)
    for (u32 i = 1; i < obj->sec_map.size() && i < obj->sec_off.size() && i < obj->elf.sections.size(); i++)
      if (const OutputSection *s = obj->sec_map[i])
        pieces[s].push_back({obj, i, obj->sec_off[i]});
  for (auto &[s, list] : pieces)
    std::stable_sort(list.begin(), list.end(),
                     [](const Piece &a, const Piece &b) { return a.offset < b.offset; });
  auto write_pieces = [&](const OutputSection *s) {
    auto it = pieces.find(s);
    if (it == pieces.end())
      return;
    for (const Piece &p : it->second) {
      const ElfSection &in = p.obj->elf.sections[p.index];
      out += fmt::format("        {}+0x{:x} size 0x{:x} <- {} [{}] {}\n",
                         s->detached ? "(bank copied into kernel banks) " : "", p.offset,
                         in.size, input_label(*p.obj), p.index, in.name);
    }
  };

  if (image) {
    out += "Output sections (image; offsets are file offsets)\n";
    out += fmt::format("  {:>4}  {:>10}  {:>10}  {:>5}  {:<20} {}\n", "idx", "offset", "size", "align",
                       "type", "name");
    std::map<u32, const OutputSection *> by_index;
    for (const OutputSection *s : ctx.out.sections)
      if (!s->removed && s->index)
        by_index[s->index] = s;
    const auto &secs = ctx.output_elf.sections;
    for (u32 i = 1; i < secs.size(); i++) {
      const ElfSection &e = secs[i];
      out += fmt::format("  {:>4}  0x{:08x}  0x{:08x}  {:>5}  {:<20} {}\n", i, e.offset, e.size,
                         e.addralign, section_type_name(e.type), e.name);
      auto it = by_index.find(i);
      if (it != by_index.end() && it->second->name == e.name)
        write_pieces(it->second);
    }
  } else {
    out += "Output sections (as merged so far; the image was not built, no offsets)\n";
    for (const OutputSection *s : ctx.out.sections) {
      if (s->removed)
        continue;
      out += fmt::format("  {:>4}  {:>10}  0x{:08x}  {:>5}  {:<20} {}\n", "-", "-", s->size, s->align,
                         section_type_name(s->type), s->name);
      write_pieces(s);
    }
  }
  // Sections merged and then dropped (empty metadata, removed functions).
  std::vector<const OutputSection *> dropped;
  for (const OutputSection *s : ctx.out.sections)
    if (s->removed && pieces.count(s))
      dropped.push_back(s);
  if (!dropped.empty()) {
    out += "  dropped after the merge:\n";
    for (const OutputSection *s : dropped) {
      out += fmt::format("    {}\n", s->name);
      write_pieces(s);
    }
  }
  out += "\n";
}

void write_symbols(const Context &ctx, bool image, std::string &out) {
  // Output symbol by final .symtab index.
  std::map<u32, const OutputSymbol *> by_index;
  for (const auto *list : {&ctx.out.locals, &ctx.out.globals, &ctx.out.late_locals})
    for (const OutputSymbol *s : *list)
      if (!s->removed && s->index)
        by_index[s->index] = s;
  out += "Symbols\n";
  out += fmt::format("  {:>5}  {:>10}  {:>8}  {:<6} {:<14} {:<32} {}\n", "idx", "value", "size", "bind",
                     "type", "section", "name  <- defined in");
  auto defined_in = [](const OutputSymbol *s) -> std::string {
    if (!s)
      return "";
    if (s->is_section_symbol)
      return "";
    if (!s->defined())
      return "  <- undefined";
    return s->defined_in ? fmt::format("  <- {}", input_label(*s->defined_in)) : "";
  };
  if (image) {
    const ElfFile &elf = ctx.output_elf;
    for (const ElfSection &sec : elf.sections) {
      if (sec.type != SHT_SYMTAB || sec.name != ".symtab")
        continue;
      std::vector<ElfSymbol> syms = try_read_symbols(elf, sec);
      for (u32 i = 1; i < syms.size(); i++) {
        const ElfSymbol &e = syms[i];
        auto it = by_index.find(i);
        const OutputSymbol *s = it != by_index.end() && it->second->name == e.name ? it->second : nullptr;
        std::string name = e.type() == STT_SECTION ? "(section symbol)" : display_name(e.name);
        out += fmt::format("  {:>5}  0x{:08x}  {:>8}  {:<6} {:<14} {:<32} {}{}\n", i, e.value, e.size,
                           symbol_bind_name(e.bind()), symbol_type_name(e.type()),
                           section_index_name(elf, e.shndx), name, defined_in(s));
      }
    }
  } else {
    for (const auto *list : {&ctx.out.locals, &ctx.out.globals})
      for (const OutputSymbol *s : *list) {
        if (s->removed || s->is_section_symbol)
          continue;
        out += fmt::format("  {:>5}  0x{:08x}  {:>8}  {:<6} {:<14} {:<32} {}{}\n", "-", s->value, s->size,
                           symbol_bind_name(s->bind), symbol_type_name(s->type),
                           s->section ? s->section->name : "UNDEF", display_name(s->name), defined_in(s));
      }
  }
  out += "\n";
}

bool lost_weak_copy(const Context &ctx, const InputObject &obj, const ElfSymbol &s) {
  if (s.bind() != STB_WEAK || s.type() != STT_FUNC)
    return false;
  const u32 *winner = ctx.out.weak_winner.find(s.name);
  return winner && *winner != obj.index;
}

void write_removed(const Context &ctx, std::string &out) {
  out += "Removed as dead code\n";
  out += fmt::format("  {}\n", filter_description(ctx));
  size_t n = 0;
  for (const InputObject *obj : ctx.inputs) {
    if (obj->index >= ctx.live_functions.size())
      continue;
    for (u32 i = 1; i < obj->symbols.size(); i++) {
      const ElfSymbol &s = obj->symbols[i];
      if (s.type() != STT_FUNC || s.shndx == SHN_UNDEF || is_live_function(ctx, *obj, i) ||
          lost_weak_copy(ctx, *obj, s))
        continue;
      bool kernel = (s.other & STO_CUDA_ENTRY) != 0;
      out += fmt::format("  {:<8} {}  in {}  ({})\n", kernel ? "kernel" : "function", display_name(s.name),
                         input_label(*obj),
                         kernel ? "not a root kernel" : "not reachable from a kept kernel");
      n++;
    }
  }
  if (!n)
    out += "  (no function removed)\n";
  out += "  variables: none removed (nvlink keeps every variable)\n\n";
}

// EIATTR_REGCOUNT of symbol `index` in `obj`, if recorded.
std::optional<u32> input_regcount(const InputObject &obj, u32 index) {
  const ElfSection *info = obj.elf.section_named(".nv.info");
  if (!info)
    return std::nullopt;
  try {
    for (const EiRecord &r : parse_eiattrs(info->data))
      if (r.attr == EIATTR_REGCOUNT && r.format == EIFMT_SVAL && r.payload.size() >= 8 &&
          r.payload_u32(0) == index)
        return r.payload_u32(1);
  } catch (const std::exception &) {
  }
  return std::nullopt;
}

void write_weak(const Context &ctx, std::string &out) {
  out += "Weak definitions\n";
  // name -> definitions (input, symbol) in link order
  std::map<std::string_view, std::vector<std::pair<const InputObject *, u32>>> defs;
  std::set<std::string_view> weak;
  for (const InputObject *obj : ctx.inputs)
    for (u32 i = 1; i < obj->symbols.size(); i++) {
      const ElfSymbol &s = obj->symbols[i];
      if (s.bind() == STB_LOCAL || s.shndx == SHN_UNDEF || s.type() == STT_SECTION || s.name.empty())
        continue;
      defs[s.name].push_back({obj, i});
      if (s.bind() == STB_WEAK)
        weak.insert(s.name);
    }
  size_t n = 0;
  for (std::string_view name : weak) {
    const auto &list = defs[name];
    if (list.size() < 2)
      continue;
    n++;
    const InputObject *kept = nullptr;
    std::string rule;
    if (const u32 *winner = ctx.out.weak_winner.find(name)) {
      for (const auto &[obj, index] : list)
        if (obj->index == *winner)
          kept = obj;
      rule = "the copy with the fewest registers (EIATTR_REGCOUNT), the first on ties";
    } else if (OutputSymbol *const *g = ctx.out.global_by_name.find(name)) {
      kept = (*g)->defined_in;
    }
    out += fmt::format("  {}\n", display_name(name));
    for (const auto &[obj, index] : list) {
      const ElfSymbol &s = obj->symbols[index];
      std::optional<u32> regs = s.type() == STT_FUNC ? input_regcount(*obj, index) : std::nullopt;
      out += fmt::format("    {}  {:<6} {:<14} size {:>6}{}  {}\n", obj == kept ? "kept" : "lost",
                         symbol_bind_name(s.bind()), symbol_type_name(s.type()), s.size,
                         regs ? fmt::format("  regs {:>3}", *regs) : "", input_label(*obj));
    }
    if (!rule.empty())
      out += fmt::format("    rule: {}\n", rule);
    if (kept)
      out += fmt::format("    references resolve to the copy of {}\n", input_label(*kept));
  }
  if (!n)
    out += "  (no weak symbol defined more than once)\n";
  out += "\n";
}

} // namespace

std::string describe_map(const Context &ctx, const LinkOutcome &outcome) {
  std::string out;
  out += "# dlink link map (--map; docs/explain-map.md)\n";
  out += fmt::format("# output: {}\n", ctx.opts.output_file);
  out += fmt::format("# arch:   {}\n", ctx.opts.arch_string);
  if (outcome.linked() && ctx.arch.kind == Arch::Kind::Compute)
    out += "# status: inputs checked (a compute_XX target: no output is written)\n\n";
  else if (outcome.linked())
    out += "# status: linked\n\n";
  else
    out += fmt::format("# status: LINK FAILED (exit status {}); what follows is what was known when it stopped\n\n",
                       outcome.fatal ? 1 : outcome.status);
  write_inputs(ctx, out);
  bool image = outcome.image_built && ctx.output_elf.sections.size() > 1;
  write_sections(ctx, image, out);
  write_symbols(ctx, image, out);
  write_removed(ctx, out);
  write_weak(ctx, out);
  return out;
}

} // namespace dlink
