// Structural validation of input cubins (validate.h).
//
// The reader (elf.cpp) guarantees that headers and section bytes lie inside
// the file; this stage checks the cross references between them, so that the
// merge can index freely. nvlink itself crashes on many such inputs; dlink
// reports them as corrupt instead.
#include "validate.h"

#include "input_prefetch.h"

#include "dlink/reloc_types.h"

#include "relocatable.h"

namespace dlink {

namespace {

[[noreturn]] void corrupt(const std::string &what) { throw InputError(what); }

bool is_reloc(u32 type) {
  return type == SHT_REL || type == SHT_RELA || type == SHT_CUDA_MERC_RELA ||
         type == SHT_CUDA_RESOLVED_RELA || type == SHT_CUDA_MERC_RESOLVED_RELA;
}

bool is_symtab(u32 type) { return type == SHT_SYMTAB || type == SHT_CUDA_MERC_SYMTAB; }

bool is_variable(const ElfSymbol &sym) {
  return sym.type() == STT_OBJECT || sym.type() == STT_CUDA_VARIABLE;
}

// One symbol of a symbol table: its section index (a real section, or
// SHN_UNDEF, or SHN_COMMON for a global variable), a function in code, and
// its value and size inside its section. `main` is .symtab (the Mercury
// table of sm_100+ inputs describes the capsule sections and is only checked
// for its section indices).
void check_symbol(const ElfFile &elf, const ElfSymbol &sym, bool main) {
  const size_t nsec = elf.sections.size();
  if (sym.shndx == SHN_UNDEF)
    return;
  if (sym.shndx >= 0xff00) {
    if (sym.shndx == SHN_COMMON && is_variable(sym) && sym.bind() != STB_LOCAL &&
        !sym.is_shared_variable() && sym.value <= 4096 && !(sym.value & (sym.value - 1)))
      return; // `.common`: st_value is the alignment
    corrupt(fmt::format("symbol '{}' has the reserved section index 0x{:x}", sym.name, sym.shndx));
  }
  if (sym.shndx >= nsec)
    corrupt(fmt::format("symbol '{}' refers to a missing section", sym.name));
  if (!main || sym.type() == STT_SECTION)
    return;
  const ElfSection &sec = elf.sections[sym.shndx];
  // (A unified function's stub, in .nv.uft.rel.<f>, passes: -r links keep
  // it, relocatable.h; other links stop after the merge, as nvlink's do,
  // driver.cpp.)
  if (sym.type() == STT_FUNC &&
      (!(sec.flags & SHF_EXECINSTR) || (sec.flags & SHF_CUDA_MERC) ||
       (sec.type != SHT_PROGBITS && sec.type != SHT_CUDA_UFT)))
    corrupt(fmt::format("function '{}' is not in a code section", sym.name));
  // Shared variables: st_value is the alignment until the link lays them out
  // (the reserved shared window: the offset of a variable in it).
  if (sym.is_shared_variable() || sec.type == SHT_CUDA_SHARED || sec.type == SHT_CUDA_SHARED_RESERVED)
    return;
  if (sym.value > sec.size || sym.size > sec.size - sym.value)
    corrupt(fmt::format("symbol '{}' (value 0x{:x}, size 0x{:x}) lies outside section {}", sym.name,
                        sym.value, sym.size, sym.shndx));
}

void check_cubin(InputObject &obj);

bool has_records(u32 type) {
  return type == SHT_CUDA_INFO || type == SHT_CUDA_MERC_INFO || type == SHT_CUDA_COMPAT;
}

// Where the validation keeps what it parsed (empty for other sections).
void start_parsed(InputObject &obj) {
  size_t n = obj.elf.sections.size();
  if (obj.parsed.relocs.size() == n)
    return;
  obj.parsed.relocs.assign(n, {});
  obj.parsed.records.assign(n, {});
  obj.parsed.relocs_done.assign(n, 0);
  obj.parsed.records_done.assign(n, 0);
}

size_t section_index(const InputObject &obj, const ElfSection &sec) {
  const ElfSection *first = obj.elf.sections.data();
  if (&sec < first || &sec >= first + obj.elf.sections.size())
    throw std::logic_error("section_relocs: a section of another input");
  return static_cast<size_t>(&sec - first);
}

} // namespace

const std::vector<ElfReloc> &section_relocs(InputObject &obj, const ElfSection &sec) {
  size_t i = section_index(obj, sec);
  start_parsed(obj);
  if (!obj.parsed.relocs_done[i]) {
    obj.parsed.relocs[i] = read_relocs(sec);
    obj.parsed.relocs_done[i] = 1;
  }
  return obj.parsed.relocs[i];
}

const std::vector<EiRecord> &section_records(InputObject &obj, const ElfSection &sec) {
  size_t i = section_index(obj, sec);
  start_parsed(obj);
  if (!obj.parsed.records_done[i]) {
    obj.parsed.records[i] = parse_eiattrs(sec.data);
    obj.parsed.records_done[i] = 1;
  }
  return obj.parsed.records[i];
}

void validate_cubin(InputObject &obj) {
  switch (obj.validation) {
  case InputObject::Validation::Valid:
    return;
  case InputObject::Validation::Invalid:
    throw InputError(obj.validation_error);
  case InputObject::Validation::Pending:
    check_cubin(obj);
  }
}

void precheck_inputs(Context &ctx) {
  // In groups of consecutive inputs, whose pages are released together once
  // checked (the merge faults in what it copies; consecutive inputs are
  // usually adjacent mappings: one call).
  constexpr size_t kGroup = 16;
  const size_t n = ctx.inputs.size();
  ctx.par.for_each_index((n + kGroup - 1) / kGroup, [&](size_t g) {
    std::vector<std::span<const u8>> checked;
    for (size_t i = g * kGroup; i < std::min(n, (g + 1) * kGroup); i++) {
      InputObject &obj = *ctx.inputs[i];
      try {
        obj.tkinfo_says_relocatable = written_by_relocatable_link(obj);
      } catch (...) {
        // (left to check_prelinked_inputs, which meets the same exception)
      }
      try {
        check_cubin(obj);
        obj.validation = InputObject::Validation::Valid;
      } catch (const InputError &e) {
        obj.validation_error = e.what();
        obj.validation = InputObject::Validation::Invalid;
      } catch (...) {
        // (left to the merge, which meets the same exception)
      }
      checked.push_back(obj.bytes);
    }
    inputs::release_input_pages(ctx, checked);
  });
}

namespace {

void check_cubin(InputObject &obj) {
  const ElfFile &elf = obj.elf;
  const size_t nsec = elf.sections.size();
  const size_t nsym = obj.symbols.size();

  for (size_t i = 1; i < nsec; i++) {
    const ElfSection &s = elf.sections[i];
    if (s.addralign > 4096 || (s.addralign & (s.addralign - 1)))
      corrupt(fmt::format("section {} has an invalid alignment", i));
    if (s.link >= nsec)
      corrupt(fmt::format("section {} links to a missing section", i));
    if (is_symtab(s.type)) {
      std::vector<ElfSymbol> syms = read_symbols(elf, s); // checks entry size and names
      for (size_t k = 1; k < syms.size(); k++)
        check_symbol(elf, syms[k], s.type == SHT_SYMTAB);
    }
    if (is_reloc(s.type)) {
      if (s.info == 0 || s.info >= nsec)
        corrupt(fmt::format("relocation section {} targets a missing section", i));
      const ElfSection &target = elf.sections[s.info];
      const ElfSection &symtab = elf.sections[s.link];
      if (!is_symtab(symtab.type))
        corrupt(fmt::format("relocation section {} has no symbol table", i));
      size_t table_syms = symtab.data.size() / kSymSize;
      for (const ElfReloc &r : section_relocs(obj, s)) {
        if (r.sym >= table_syms)
          corrupt(fmt::format("relocation in section {} names a missing symbol", i));
        const RelocDesc *desc = find_reloc(r.type);
        u64 width = desc ? reloc_field_bytes(*desc) : 0;
        bool sized = occupies_file_space(target) && target.type != SHT_CUDA_CAPMERC_TEXT;
        // (A field that starts inside the section but runs past its end is
        // accepted, as nvlink does: merge marks it, relocate refuses to
        // apply it.)
        if (sized && width && r.offset >= target.size)
          corrupt(fmt::format("relocation at 0x{:x} lies outside section {}", r.offset, s.info));
      }
    }
    if (has_records(s.type)) {
      for (const EiRecord &rec : section_records(obj, s)) {
        bool names_symbol = rec.format == EIFMT_SVAL && rec.payload.size() >= 4 &&
                            (rec.attr == EIATTR_REGCOUNT || rec.attr == EIATTR_FRAME_SIZE ||
                             rec.attr == EIATTR_MAX_STACK_SIZE || rec.attr == EIATTR_PARAM_CBANK ||
                             rec.attr == EIATTR_MIN_STACK_SIZE || rec.attr == EIATTR_CRS_STACK_SIZE ||
                             rec.attr == EIATTR_SAMPLER_INIT);
        if (s.type == SHT_CUDA_INFO && names_symbol && rec.payload_u32(0) >= nsym)
          corrupt(fmt::format("{} names a missing symbol", eiattr_name(rec.attr)));
        if (s.type == SHT_CUDA_INFO && rec.attr == EIATTR_EXTERNS)
          for (size_t k = 0; k + 4 <= rec.payload.size(); k += 4)
            if (read_le<u32>(rec.payload.data() + k) >= nsym)
              corrupt("EIATTR_EXTERNS names a missing symbol");
      }
    }
    // Unified functions' and variables' entries (relocatable.h): whole
    // entries, each naming a symbol.
    if (s.type == SHT_CUDA_UFT_ENTRY || s.type == SHT_CUDA_UDT_ENTRY) {
      if (s.data.size() % kUnifiedEntrySize)
        corrupt(fmt::format("section {} ends inside an entry", i));
      for (size_t at = 0; at + kUnifiedEntrySize <= s.data.size(); at += kUnifiedEntrySize)
        if (u32 sym = read_le<u32>(s.data.data() + at); sym == 0 || sym >= nsym)
          corrupt(fmt::format("section {} names a missing symbol", i));
    }
    if (s.type == SHT_CUDA_CALLGRAPH || s.type == SHT_CUDA_PROTOTYPE) {
      if (s.link == 0 || !is_symtab(elf.sections[s.link].type))
        corrupt(fmt::format("section {} has no symbol table", i));
      const ElfSection &strtab = elf.sections[elf.sections[s.link].link];
      for_each_call_entry(s, s.type == SHT_CUDA_CALLGRAPH, [&](i64 block, u32 a, i32 b) {
        if (a >= nsym)
          corrupt(fmt::format("section {} names a missing symbol", i));
        bool string_field = s.type == SHT_CUDA_PROTOTYPE || block == 2 || block == 3;
        if (string_field)
          string_at(strtab, static_cast<u32>(b)); // throws when out of range
        else if (static_cast<u32>(b) >= nsym)
          corrupt(fmt::format("section {} names a missing symbol", i));
      });
    }
  }
}

} // namespace

} // namespace dlink
