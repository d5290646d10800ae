// Synthetic sections (synthetic.h): prepare, size, write.
#include "output/synthetic.h"

#include "layout.h"
#include "debug_link.h"
#include "output/target_hooks.h"
#include "output_model.h"

#include "dlink/key_index.h"

#include <algorithm>
#include <array>

namespace dlink {

namespace {

constexpr u32 kCudaToolkitVersion = 130; // 13.0
constexpr std::array<u8, 16> kRelAction = {0x73, 0, 0, 0, 0, 0, 0, 0,
                                           0, 0, 0, 0x11, 0x25, 0, 0x05, 0x36};

} // namespace

u32 lower_cuinfo_sm(const InputObject &obj, u32 sm) {
  const ElfSection *note = obj.elf.section_named(".note.nv.cuinfo");
  if (!note || note->type != SHT_NOTE || note->data.size() < 12)
    return sm;
  const u8 *d = note->data.data();
  u32 namesz = read_le<u32>(d), descsz = read_le<u32>(d + 4);
  u64 desc = 12 + align_to(namesz, 4);
  if (descsz < 4 || desc + 4 > note->data.size() || read_le<u16>(d + desc) != 2)
    return sm;
  return std::min<u32>(sm, read_le<u16>(d + desc + 2));
}

namespace {

void append_note(std::vector<u8> &out, u32 type, std::span<const u8> desc) {
  constexpr std::string_view name("NVIDIA Corp\0", 12);
  u8 hdr[12];
  write_le<u32>(hdr, 12);
  write_le<u32>(hdr + 4, static_cast<u32>(desc.size()));
  write_le<u32>(hdr + 8, type);
  out.insert(out.end(), hdr, hdr + 12);
  out.insert(out.end(), name.begin(), name.end());
  out.insert(out.end(), desc.begin(), desc.end());
  while (out.size() % 4)
    out.push_back(0);
}

std::vector<u8> tkinfo_desc(const Context &ctx) {
  std::vector<std::string_view> strings = {ctx.opts.tkinfo_object_name, ctx.opts.program_name,
                                           kNvlinkReleaseLine, kNvlinkBuildLine,
                                           ctx.opts.canonical_command_line};
  std::vector<u8> desc(24, 0);
  write_le<u32>(desc.data(), 2);
  // Each string at the next offset, NUL-terminated: the empty object name
  // (no -g) is the "\0" at offset 0; with -g the basename of -o starts
  // there (measured).
  std::vector<u8> area;
  for (size_t i = 0; i < strings.size(); i++) {
    u32 off = 0;
    if (i == 0 || !strings[i].empty()) {
      off = static_cast<u32>(area.size());
      area.insert(area.end(), strings[i].begin(), strings[i].end());
      area.push_back(0);
    }
    write_le<u32>(desc.data() + 4 + 4 * i, off);
  }
  desc.insert(desc.end(), area.begin(), area.end());
  while (desc.size() % 4)
    desc.push_back(0);
  return desc;
}

// Bytes fixed by prepare() (small sections: notes).
class FixedBytes : public SyntheticSection {
public:
  using SyntheticSection::SyntheticSection;
  u64 size() const override { return bytes_.size(); }
  void write(u8 *out) const override { std::copy(bytes_.begin(), bytes_.end(), out); }

protected:
  std::vector<u8> bytes_;
};

class TkinfoNote : public FixedBytes {
public:
  using FixedBytes::FixedBytes;
  void prepare(Context &ctx, OutputLayout &) override {
    bytes_ = section_->data;
    append_note(bytes_, 2000, tkinfo_desc(ctx));
    for (auto note : ctx.out.input_tkinfo_notes)
      bytes_.insert(bytes_.end(), note.begin(), note.end());
  }
};

class CuinfoNote : public FixedBytes {
public:
  using FixedBytes::FixedBytes;
  void prepare(Context &ctx, OutputLayout &) override {
    bytes_ = section_->data;
    u8 desc[8];
    write_le<u16>(desc, 2);
    write_le<u16>(desc + 2, static_cast<u16>(ctx.out.cuinfo_sm));
    write_le<u32>(desc + 4, kCudaToolkitVersion);
    append_note(bytes_, 1000, desc);
  }
};

class RelAction : public FixedBytes {
public:
  using FixedBytes::FixedBytes;
  void prepare(Context &, OutputLayout &) override { bytes_.assign(kRelAction.begin(), kRelAction.end()); }
};

// .nv.info, .nv.info.<f> (and their sm_100+ copies): the records, their
// symbol fields (eiattr.def) given the final symbol indices.
class InfoSection : public SyntheticSection {
public:
  using SyntheticSection::SyntheticSection;
  void prepare(Context &ctx, OutputLayout &) override {
    ctx_ = &ctx;
    // (An EIATTR_EXTERNS entry of an input naming a symbol the link has no
    // output symbol for reaches here only from a corrupt input: refused
    // rather than written with a made-up index.)
    for (const InfoRecord &r : section_->records) {
      if (std::find(r.syms.begin(), r.syms.end(), nullptr) != r.syms.end())
        ctx.diag.fatal(fmt::format("Corrupt input file: a {} record in {} names a symbol that is "
                                   "not linked",
                                   eiattr_name(r.attr), section_->name));
      if (r.format == EIFMT_SVAL && r.payload.size() > 0xffff)
        ctx.diag.fatal(fmt::format("internal error: a {} record in {} is too large",
                                   eiattr_name(r.attr), section_->name));
    }
  }
  u64 size() const override {
    u64 n = 0;
    for (const InfoRecord &r : section_->records)
      n += 4 + (r.format == EIFMT_SVAL ? r.payload.size() : 0);
    return n;
  }
  void write(u8 *out) const override {
    const OutputHooks &hooks = output_hooks(*ctx_);
    const bool own = hooks.names_own_symbols(*ctx_, section_);
    auto index_of = [&](const OutputSymbol *s) { return own ? hooks.own_symbol_index(*ctx_, s) : s->index; };
    for (const InfoRecord &r : section_->records) {
      u8 *start = out + 4;
      out += encode_eiattr(out, r.format, r.attr, r.value, r.payload);
      if (r.format != EIFMT_SVAL)
        continue;
      if (r.sym)
        write_le<u32>(start, index_of(r.sym));
      if (eiattr_symbols(r.attr) == EiSymbols::All)
        for (size_t k = 0; k < r.syms.size(); k++)
          write_le<u32>(start + 4 * k, index_of(r.syms[k]));
    }
  }

private:
  const Context *ctx_ = nullptr; // (set by prepare)
};

class CompatSection : public SyntheticSection {
public:
  using SyntheticSection::SyntheticSection;
  void prepare(Context &ctx, OutputLayout &) override {
    write_le<u64>(value_0b_.data(), ctx.out.compat_0b);
    for (EiRecord r : ctx.out.compat) {
      if (r.attr == 0x0b && ctx.arch.sm < 100)
        continue;
      if (r.attr == 0x0b)
        r.payload = value_0b_;
      if (r.attr == 0x09)
        r.value = ctx.arch.variant == Arch::Variant::Specific ? 1 : 0;
      records_.push_back(r);
    }
  }
  u64 size() const override {
    u64 n = 0;
    for (const EiRecord &r : records_)
      n += r.encoded_size();
    return n;
  }
  void write(u8 *out) const override {
    for (const EiRecord &r : records_)
      out += encode_eiattr(out, r.format, r.attr, r.value, r.payload);
  }

private:
  std::array<u8, 8> value_0b_{};
  std::vector<EiRecord> records_;
};

class RelocSection : public SyntheticSection {
public:
  using SyntheticSection::SyntheticSection;
  void prepare(Context &ctx, OutputLayout &) override {
    const OutputSection *sec = section_;
    ctx_ = &ctx;
    hooks_ = &output_hooks(ctx);
    own_ = hooks_->names_own_symbols(ctx, sec);
    for (const OutputReloc &r : sec->relocs) {
      u32 index = r.sym ? index_of(r.sym) : 0;
      // nvlink never leaves a relocation against symbol 0 in a linked
      // image (none in any golden output): the driver would patch S = 0
      // into the code. One here means a symbol the link could not name
      // (an internal or removed one): refuse rather than write it.
      if (index == 0 && sec->resolved_rela)
        ctx.diag.fatal(fmt::format("--preserve-relocs: the resolved relocation of type 0x{:x} at 0x{:x} "
                                   "in '{}' names '{}', which this link writes no symbol for; not "
                                   "supported by dlink yet",
                                   r.type, r.offset, sec->name, r.sym ? r.sym->name : ""));
      if (index == 0)
        ctx.diag.fatal(fmt::format(
            "internal error: relocation of type 0x{:x} at 0x{:x} in '{}' against {} would "
            "name no symbol",
            r.type, r.offset, sec->name,
            r.sym ? fmt::format("'{}'", r.sym->name) : std::string("symbol 0")));
    }
  }
  u64 size() const override { return section_->relocs.size() * entry_size(); }
  void write(u8 *out) const override {
    // (Every relocation names a symbol: prepare() checked.)
    for (const OutputReloc &r : section_->relocs) {
      write_reloc(out, {r.offset, index_of(r.sym), r.type, r.addend}, section_->rela);
      out += entry_size();
    }
  }

private:
  u64 entry_size() const { return section_->rela ? kRelaSize : kRelSize; }
  u32 index_of(const OutputSymbol *sym) const { return own_ ? hooks_->own_symbol_index(*ctx_, sym) : sym->index; }
  // (Set by prepare.)
  const Context *ctx_ = nullptr;
  const OutputHooks *hooks_ = nullptr;
  bool own_ = false;
};

// Pairs of (u32, u32/i32) entries after what the section already holds.
class PairTable : public SyntheticSection {
public:
  using SyntheticSection::SyntheticSection;
  u64 size() const override { return prefix_.size() + 8 * entries_.size(); }
  void write(u8 *out) const override {
    out = std::copy(prefix_.begin(), prefix_.end(), out);
    for (auto [a, b] : entries_) {
      write_le<u32>(out, a);
      write_le<u32>(out + 4, b);
      out += 8;
    }
  }

protected:
  std::vector<u8> prefix_;
  std::vector<std::pair<u32, u32>> entries_;
};

class CallgraphSection : public PairTable {
public:
  using PairTable::PairTable;
  void prepare(Context &ctx, OutputLayout &layout) override;
};

void CallgraphSection::prepare(Context &ctx, OutputLayout &layout) {
  const OutputModel &out = ctx.out;
  StringTable &strtab = layout.strtab;
  prefix_ = section_->data;
  auto put = [&](u32 a, i32 b) { entries_.emplace_back(a, static_cast<u32>(b)); };
  auto idx = [](const OutputSymbol *s) { return s ? s->index : 0u; };
  // Call edges: callers in symbol creation order, each caller's callees
  // most recent first (nvlink keeps a prepend list per caller).
  put(0, -1);
  // Group the edges by caller once: callers numbered in order of first
  // appearance, each one's edges in a run of one array.
  PointerIndex<OutputSymbol> callers;
  std::vector<u32> group(out.call_edges.size(), ~0u), first(1, 0);
  for (u32 i = 0; i < out.call_edges.size(); i++) {
    if (out.dead_call_edges.count(i))
      continue;
    auto [g, fresh] = callers.intern(out.call_edges[i].first);
    if (fresh)
      first.push_back(0);
    group[i] = g;
    first[g + 1]++;
  }
  for (size_t g = 1; g < first.size(); g++)
    first[g] += first[g - 1];
  std::vector<u32> edges(first.back()), fill(first.begin(), first.end() - 1);
  for (u32 i = 0; i < out.call_edges.size(); i++)
    if (group[i] != ~0u)
      edges[fill[group[i]]++] = i;
  // Callers in symbol creation order (ties in order of appearance), each
  // one's callees most recent first.
  const std::vector<const OutputSymbol *> &caller = callers.keys();
  std::vector<u32> order(caller.size());
  for (u32 g = 0; g < order.size(); g++)
    order[g] = g;
  std::stable_sort(order.begin(), order.end(), [&](u32 x, u32 y) {
    return (caller[x] ? caller[x]->create_seq : 0) < (caller[y] ? caller[y]->create_seq : 0);
  });
  entries_.reserve(entries_.size() + edges.size());
  for (u32 g : order)
    for (u32 k = first[g + 1]; k-- > first[g];)
      put(idx(caller[g]), static_cast<i32>(idx(out.call_edges[edges[k]].second)));
  // Address-taken functions in symbol creation order; indirect call sites
  // and their possible targets grouped by function (in symbol order), each
  // group most recent first, targets listed once per function.
  auto by_index = [&](auto list) {
    std::stable_sort(list.begin(), list.end(),
                     [&](const auto &x, const auto &y) { return idx(x.first) < idx(y.first); });
    return list;
  };
  auto by_creation = [&](auto list) {
    std::stable_sort(list.begin(), list.end(), [&](const auto &x, const auto &y) {
      return (x.first ? x.first->create_seq : 0) < (y.first ? y.first->create_seq : 0);
    });
    return list;
  };
  auto grouped_recent_first = [&](auto list, bool unique) {
    std::reverse(list.begin(), list.end());
    if (unique) {
      decltype(list) seen;
      for (auto &e : list)
        if (std::find(seen.begin(), seen.end(), e) == seen.end())
          seen.push_back(e);
      list = seen;
    }
    return unique ? by_creation(list) : by_index(list);
  };
  put(0, -2);
  // (Address-taken functions: in the order their output symbols were
  // created, wherever the entry came from.)
  for (auto &[a, p] : by_creation(out.address_taken))
    put(idx(a), static_cast<i32>(p.empty() ? strtab.empty_offset() : strtab.add(p)));
  put(0, -3);
  for (auto &[a, p] : grouped_recent_first(out.indirect_calls, false))
    put(idx(a), static_cast<i32>(strtab.add(p)));
  put(0, -4);
  for (auto &[a, b] : grouped_recent_first(out.indirect_targets, true))
    put(idx(a), static_cast<i32>(idx(b)));
}

class PrototypeSection : public PairTable {
public:
  using PairTable::PairTable;
  void prepare(Context &ctx, OutputLayout &layout) override {
    prefix_ = section_->data;
    for (auto &[sym, proto] : ctx.out.prototypes)
      entries_.emplace_back(sym ? sym->index : 0, layout.strtab.offset_of(proto));
  }
};

class StringTableSection : public SyntheticSection {
public:
  StringTableSection(OutputSection *sec, const StringTable &table) : SyntheticSection(sec), table_(table) {}
  u64 size() const override { return table_.bytes().size(); }
  void write(u8 *out) const override { std::copy(table_.bytes().begin(), table_.bytes().end(), out); }

private:
  const StringTable &table_;
};

// .symtab.
class SymbolTableSection : public SyntheticSection {
public:
  using SyntheticSection::SyntheticSection;
  void prepare(Context &ctx, OutputLayout &layout) override;
  u64 size() const override { return syms_.size() * kSymSize; }
  void write(u8 *out) const override { write_symbols(out, syms_); }

private:
  std::vector<ElfSymbol> syms_;
};

void SymbolTableSection::prepare(Context &ctx, OutputLayout &layout) {
  const StringTable &strtab = layout.strtab;
  syms_.assign(1, ElfSymbol{});
  syms_[0].value = ctx.out.null_symbol_value;
  const bool program_wide = debug_shared_variables_end(ctx) > 0;
  // .symtab_shndx (extended numbering only): the section index of a symbol
  // whose st_shndx is SHN_XINDEX; for the others, nvlink's own number of
  // the symbol's section (never updated to the final index), or 0 in the
  // table sm_100+ makes after the merge.
  // (SHN_LORESERVE and SHN_COMMON: include/dlink/elf.h.)
  layout.xindex.assign(layout.extended ? 1 : 0, 0);
  // (The names looked up in parallel.)
  std::vector<u32> name_offsets(layout.symbols.size());
  ctx.par.for_each_index(name_offsets.size(), [&](size_t i) {
    name_offsets[i] = strtab.offset_of(layout.symbols[i]->name);
  }, 1024);
  // Symbol i's entry, given its st_shndx.
  auto entry = [&](size_t i, u32 shndx) {
    const OutputSymbol *sym = layout.symbols[i];
    ElfSymbol e;
    e.name_offset = name_offsets[i];
    e.info = ElfSymbol::make_info(sym->bind, sym->type);
    e.other = sym->other;
    e.shndx = static_cast<u16>(shndx);
    e.value = sym->is_section_symbol ? 0 : sym->value;
    // -g: __shared__ symbols give their address in the kernel's window,
    // after the reserved prefix (their relocations use the offset). -r
    // keeps them as the inputs have them (relocatable.h).
    e.value += debug_shared_symbol_bias(ctx, *sym, program_wide);
    e.size = sym->size;
    return e;
  };
  auto section_index = [](const OutputSymbol *sym) {
    return sym->section && !sym->section->removed ? sym->section->index : 0u;
  };
  if (!layout.extended) { // (every entry on its own: in parallel)
    syms_.resize(layout.symbols.size() + 1);
    ctx.par.for_each_index(layout.symbols.size(), [&](size_t i) {
      syms_[i + 1] = entry(i, section_index(layout.symbols[i]));
    }, 1024);
    return;
  }
  syms_.reserve(layout.symbols.size() + 1);
  for (size_t i = 0; i < layout.symbols.size(); i++) {
    OutputSymbol *sym = layout.symbols[i];
    u32 shndx = section_index(sym);
    if (!layout.stale_entries) {
      // (Not measured: nvlink's table made after the merge for a symbol of
      // .symtab whose section index reaches SHN_LORESERVE.)
      if (shndx >= SHN_LORESERVE)
        ctx.diag.fatal(fmt::format("the link places symbol '{}' in section {}: such a .symtab_shndx entry "
                                   "is not supported by dlink yet for {}",
                                   sym->name, shndx, ctx.arch.name()));
      layout.xindex.push_back(0);
    } else {
      u32 stale = 0;
      if (sym->section && !sym->section->removed) {
        auto it = layout.creation_index.find(sym->section);
        stale = it != layout.creation_index.end() ? it->second : 0;
        if (it == layout.creation_index.end())
          ctx.diag.fatal(fmt::format("internal error: section '{}' has no creation index", sym->section->name));
        // (Number 0: sm_100+ sections created after the merge, entry 0;
        // measured below 0xff00 only.)
        if (stale == 0 && shndx == SHN_COMMON)
          ctx.diag.fatal(fmt::format("the link places symbol '{}' in section {}: such a .symtab_shndx entry "
                                     "is not supported by dlink yet for {}",
                                     sym->name, shndx, ctx.arch.name()));
      }
      // A section whose index is SHN_COMMON (0xfff2) keeps it in st_shndx
      // (the symbol reads as a common one) with a stale entry, as nvlink
      // writes it; with -r, so does a section whose own number is SHN_COMMON
      // (output_layout.h).
      if (sym->section && layout.keeps_common_number(sym->section))
        shndx = SHN_COMMON;
      bool x = shndx >= SHN_LORESERVE && shndx != SHN_COMMON;
      layout.xindex.push_back(x ? shndx : stale);
      if (x)
        shndx = SHN_XINDEX;
    }
    syms_.push_back(entry(i, shndx));
  }
}

} // namespace

SyntheticSections metadata_sections(Context &ctx, const OutputLayout &layout) {
  SyntheticSections list;
  for (OutputSection *sec : layout.order)
    if (sec->kind == SectionKind::ModuleInfo || sec->kind == SectionKind::FunctionInfo ||
        sec->type == SHT_CUDA_MERC_INFO)
      list.push_back(std::make_unique<InfoSection>(sec));
  // (.nv.callgraph always exists by now; .nv.prototype and .nv.rel.action
  // may have been dropped.)
  if (OutputSection *callgraph = find_section(ctx, ".nv.callgraph"))
    list.push_back(std::make_unique<CallgraphSection>(callgraph));
  if (OutputSection *prototype = find_section(ctx, ".nv.prototype"); prototype && !prototype->removed)
    list.push_back(std::make_unique<PrototypeSection>(prototype));
  if (OutputSection *rel_action = find_section(ctx, ".nv.rel.action"))
    list.push_back(std::make_unique<RelAction>(rel_action));
  for (OutputSection *sec : layout.order) {
    if (sec->kind == SectionKind::Compat)
      list.push_back(std::make_unique<CompatSection>(sec));
    if (sec->kind == SectionKind::Note && sec->name == ".note.nv.tkinfo")
      list.push_back(std::make_unique<TkinfoNote>(sec));
    if (sec->kind == SectionKind::Note && sec->name == ".note.nv.cuinfo")
      list.push_back(std::make_unique<CuinfoNote>(sec));
    if (sec->kind == SectionKind::Reloc)
      list.push_back(std::make_unique<RelocSection>(sec));
  }
  return list;
}

SyntheticSections table_sections(Context &ctx, const OutputLayout &layout) {
  SyntheticSections list;
  const OutputHooks &hooks = output_hooks(ctx);
  for (OutputSection *sec : layout.order) {
    if (hooks.owns_section(ctx, sec)) {
      if (auto table = hooks.table_section(ctx, sec))
        list.push_back(std::move(table));
    } else if (sec->kind == SectionKind::StringTable)
      list.push_back(std::make_unique<StringTableSection>(
          sec, sec->name == ".shstrtab" ? layout.shstrtab : layout.strtab));
    else if (sec->kind == SectionKind::SymbolTable)
      list.push_back(std::make_unique<SymbolTableSection>(sec));
  }
  return list;
}

void write_synthetic_sections(Context &ctx, OutputLayout &layout, SyntheticSections &list) {
  for (auto &s : list)
    s->prepare(ctx, layout);
  // (Each section's size depends on its own prepared state only.)
  ctx.par.for_each_index(list.size(), [&](size_t i) {
    OutputSection *sec = list[i]->section();
    sec->size = list[i]->size();
    sec->data.resize(sec->size);
    list[i]->write(sec->data.data());
  });
}

} // namespace dlink
