// The merge stage (merge.h): symbol resolution: passes 1 and 2 (function
// symbols, then variables), the weak choice and the undefined references.
#include "link/input_merger.h"
#include "merge.h"

#include "dlink/demangle.h"
#include "dlink/reloc_types.h"

#include "dead_code.h"
#include "debug_link.h"
#include "elf/dwarf_frame.h"
#include "output_model.h"
#include "relocatable.h"
#include "validate.h"

#include <algorithm>

namespace dlink {

namespace {

bool is_placeholder_name(std::string_view name) {
  return name.starts_with("__UFT") || name.starts_with("__UDT");
}

} // namespace

void InputMerger::define(OutputSymbol *out, const ElfSymbol &in, OutputSection *sec, u64 offset) {
  out->section = sec;
  out->value = in.value + offset;
  out->size = in.size;
  out->other = in.other;
  out->type = in.type();
  out->bind = in.bind();
  out->defined_in = &obj_;
  out->def_order = (u64(obj_.index) << 32) | definition_position(in);
}

// A -r output's functions count in the order of their .nv.info.<f>
// sections, which that link wrote in its own order (measured on the
// EXTERNS records of two- and three-stage links: externs_single, cdp,
// virtual_2tu, relocatable_two_stage_externs, whose .text sections a
// second -r reorders but not the .nv.info ones); other symbols by index.
u64 InputMerger::definition_position(const ElfSymbol &in) const {
  if (obj_.prelinked && in.type() == STT_FUNC)
    if (const ElfSection *info = obj_.elf.section_named(".nv.info." + std::string(in.name)))
      return static_cast<u64>(info - obj_.elf.sections.data());
  return static_cast<u64>(&in - obj_.symbols.data());
}

bool InputMerger::duplicate_of_dead_definition(u32 i, bool live) {
  const ElfSymbol &s = obj_.symbols[i];
  auto [def, first] = ctx_.out.strong_function_defs.try_emplace(s.name, name_hash(i), {&obj_, live});
  if (first)
    return false;
  if (live && def->second)
    return false;
  ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'", s.name,
                              obj_.name, def->first->name));
  multiple_definition_ = true;
  return true;
}

void InputMerger::check_function_kind(u32 i) {
  const ElfSymbol &s = obj_.symbols[i];
  bool entry = (s.other & STO_CUDA_ENTRY) != 0;
  auto [kernel, first] = ctx_.out.function_is_kernel.try_emplace(s.name, name_hash(i), entry);
  if (first)
    return;
  if (*kernel == entry)
    return;
  ctx_.diag.error(fmt::format("Function '{}' not declared __global__ in all source files",
                              demangle(s.name).value_or(std::string(s.name))));
  multiple_definition_ = true;
}

void InputMerger::merge_function_symbols() {
  const KernelFilter filter = kernel_filter(ctx_);
  const bool host_pruning = filter.mode == KernelFilter::Mode::HostReferences;
  for (u32 i = 1; i < obj_.symbols.size(); i++) {
    const ElfSymbol &s = obj_.symbols[i];
    if (host_pruning && s.type() == STT_FUNC && !is_live_function(ctx_, obj_, i) &&
        (s.other & STO_CUDA_ENTRY) && s.shndx != SHN_UNDEF) {
      // A kernel pruned by the host references leaves the name of its
      // shared section behind (nvlink creates it in this pass, then drops
      // the section); one pruned by -kernels-used/-variables-used does not.
      std::string shared_name = ".nv.shared." + std::string(s.name);
      if (!find_section(ctx_, shared_name))
        create_section(ctx_, shared_name, SHT_CUDA_SHARED, SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK, 4)
            ->removed = true;
    }
    if (s.type() == STT_FUNC && s.bind() != STB_LOCAL)
      check_function_kind(i);
    if (s.type() == STT_FUNC && s.bind() == STB_GLOBAL && s.shndx != SHN_UNDEF &&
        duplicate_of_dead_definition(i, is_live_function(ctx_, obj_, i)))
      continue;
    if (s.type() != STT_FUNC || !is_live_function(ctx_, obj_, i))
      continue;
    if (s.bind() == STB_LOCAL) {
      merge_local_function(i, s, filter);
      continue;
    }
    OutputSymbol *out = find_global(ctx_, s.name, name_hash(i));
    if (!out) {
      out = create_global(ctx_, s.name, s.bind() == STB_WEAK && s.shndx != SHN_UNDEF, name_hash(i));
      out->type = STT_FUNC;
      out->bind = s.bind();
      out->first_referenced_in = &obj_;
      if (relocatable_output(ctx_)) // (-r: an undefined kernel stays marked as one)
        out->other = s.other;
    }
    sym_map_[i] = out;
    if (s.shndx == SHN_UNDEF)
      continue;
    if (!out->defined() && s.bind() == STB_WEAK && !is_weak_winner(s.name)) {
      // Another input's copy of this weak function wins (fewer registers);
      // the output section keeps this first occurrence's place.
      if (!find_section(ctx_, in_section(s.shndx).name))
        create_section(ctx_, in_section(s.shndx).name, in_section(s.shndx).type,
                       in_section(s.shndx).flags & ~u64(SHF_INFO_LINK),
                       in_section(s.shndx).addralign, in_section(s.shndx).entsize);
      // A weak kernel (template __global__) also places its .nv.info.<k>
      // and .nv.shared.<k> here, as map_function_sections would (a
      // replaced tk<float>: the names follow .text.<k> in .shstrtab).
      if (s.other & STO_CUDA_ENTRY) {
        std::string info_name = ".nv.info." + std::string(s.name);
        if (input_section_named(info_name) && !find_section(ctx_, info_name))
          create_section(ctx_, info_name, SHT_CUDA_INFO, SHF_INFO_LINK, 4);
        std::string shared_name = ".nv.shared." + std::string(s.name);
        if (!find_section(ctx_, shared_name))
          create_section(ctx_, shared_name, SHT_CUDA_SHARED, SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK, 4);
      }
      discarded_[i] = true;
      winner_elsewhere_.insert(i);
      continue;
    }
    if (out->defined()) {
      if (s.bind() == STB_WEAK || out->bind == STB_WEAK) {
        // The first definition stays; this input's copy is dropped.
        discarded_[i] = true;
        continue;
      }
      ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'",
                                  s.name, obj_.name, out->defined_in->name));
      multiple_definition_ = true;
      continue;
    }
    OutputSection *text = code_section_of(s, filter);
    define(out, s, text, sec_off_[s.shndx]);
    out->non_root_entry = is_non_root_kernel(filter, s);
    text->func = out;
  }
}

OutputSection *InputMerger::code_section_of(const ElfSymbol &s, const KernelFilter &filter) {
  OutputSection *text = map_function_sections(s, filter);
  // (A unified function's stub: the link stops after the merge, driver.cpp.)
  if (text && s.shndx < obj_.elf.sections.size() && obj_.elf.sections[s.shndx].type == SHT_CUDA_UFT)
    return text;
  if (!text || text->kind != SectionKind::Text)
    throw InputError(fmt::format("function '{}' is not in a code section", s.name));
  return text;
}

void InputMerger::merge_local_function(u32 i, const ElfSymbol &s, const KernelFilter &filter) {
  OutputSymbol *out = create_local(ctx_, s.name);
  sym_map_[i] = out;
  if (s.shndx == SHN_UNDEF)
    return;
  OutputSection *text = code_section_of(s, filter);
  define(out, s, text, sec_off_[s.shndx]);
  out->non_root_entry = is_non_root_kernel(filter, s);
  text->func = out;
}

bool InputMerger::is_non_root_kernel(const KernelFilter &filter, const ElfSymbol &s) {
  return filter.mode == KernelFilter::Mode::KernelsUsed && (s.other & STO_CUDA_ENTRY) &&
         !filter.keeps(s.name);
}

OutputSection *InputMerger::map_function_sections(const ElfSymbol &s, const KernelFilter &filter) {
  OutputSection *text = map_section(s.shndx);
  if ((s.other & STO_CUDA_ENTRY) && !is_non_root_kernel(filter, s)) {
    // Kernels get their .nv.info.<k> here; other functions when pass 4
    // reaches the section.
    std::string info_name = ".nv.info." + std::string(s.name);
    if (input_section_named(info_name) && !function_info_section(info_name))
      keep_own_info_section(create_section(ctx_, info_name, SHT_CUDA_INFO, SHF_INFO_LINK, 4));
    std::string shared_name = ".nv.shared." + std::string(s.name);
    if (auto shared = input_section_named(shared_name)) {
      map_section(*shared);
    } else if (!find_section(ctx_, shared_name)) {
      create_section(ctx_, shared_name, SHT_CUDA_SHARED, SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK,
                     4);
    }
  }
  return text;
}

namespace {

// A -r output defines a dynamic `extern __shared__` array it saw undefined
// (a GLOBAL variable of .nv_debug.shared, size 0; relocatable.md). An
// executable link takes it as the declaration it stands for: nvlink's
// final image of such a two-stage link is its one-stage image (measured,
// sm_75/sm_90: global_shared, relocatable_two_stage_shared).
bool dynamic_array_of_relocatable_output(const ElfSymbol &s) {
  return s.shndx != SHN_UNDEF && s.size == 0 && s.bind() != STB_LOCAL;
}

ElfSymbol as_declaration(const ElfSymbol &s) {
  ElfSymbol decl = s;
  decl.shndx = SHN_UNDEF;
  decl.value = 0;
  return decl;
}

} // namespace

void InputMerger::merge_other_symbols() {
  for (u32 i = 1; i < obj_.symbols.size(); i++) {
    const ElfSymbol &s = obj_.symbols[i];
    if (s.type() == STT_FUNC || s.type() == STT_SECTION)
      continue;
    if (s.bind() == STB_LOCAL) {
      merge_local_variable(i, s);
      continue;
    }
    if (s.type() == STT_CUDA_VARIABLE)
      check_variable_kind(s);
    // (-r: a namespace-scope __shared__ variable, or a sized `extern` one,
    // is an ordinary variable of .nv_debug.shared; nothing is laid out.)
    // (A name first seen as a dynamic array stays on the path below: its
    // errors name that input.)
    // (A -r output's dynamic array is the declaration it stands for, -r
    // too: relocatable_second_stage_dynamic.)
    const bool prelinked_array =
        s.is_shared_variable() && obj_.prelinked && dynamic_array_of_relocatable_output(s);
    // (Named before by another input, even by a declaration, it is a
    // multiple definition: measured, -r and executable links alike.)
    if (prelinked_array)
      if (auto prior = ctx_.out.shared_declarations.find(s.name);
          prior != ctx_.out.shared_declarations.end() && prior->second.first != &obj_) {
        ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'", s.name,
                                    obj_.name, prior->second.first->name));
        multiple_definition_ = true;
        continue;
      }
    if (s.is_shared_variable() &&
        (prelinked_array || !(relocatable_output(ctx_) && (s.shndx != SHN_UNDEF || s.size) &&
                              !ctx_.out.extern_shared_by_name.count(s.name)))) {
      merge_shared_variable(i, prelinked_array ? as_declaration(s) : s);
      continue;
    }
    OutputSymbol *out = find_global(ctx_, s.name, name_hash(i));
    const bool common = s.shndx == SHN_COMMON;
    bool size_mismatch = false;
    if (!out) {
      // A weak variable's section exists before its (local-array) symbol.
      bool weak_definition = s.bind() == STB_WEAK && s.shndx != SHN_UNDEF && !common;
      if (weak_definition)
        map_section(s.shndx);
      out = create_global(ctx_, s.name, weak_definition, name_hash(i));
      out->type = s.type();
      out->bind = s.bind();
      out->other = s.other;
      out->size = s.size;
      out->first_referenced_in = &obj_;
    } else if ((s.type() == STT_CUDA_VARIABLE || s.type() == STT_OBJECT) && out->size && s.size && out->size != s.size &&
               !(common && out->common)) {
      ctx_.diag.error(fmt::format("Size doesn't match for '{}' in '{}', first specified in '{}'",
                                  s.name, obj_.name, out->first_referenced_in->name));
      multiple_definition_ = true;
      size_mismatch = true;
    }
    sym_map_[i] = out;
    if (s.shndx == SHN_UNDEF)
      continue;
    if (common) {
      merge_common_symbol(out, s);
      continue;
    }
    if (out->common_pending) {
      // A definition after `.common` ones (measured): one of another size
      // is only the size error; one in uninitialised data is ignored (its
      // bytes stay in the section, the common space is still allocated,
      // and a later `.common` is a multiple definition); one in
      // initialised data defines the symbol.
      out->common = false;
      if (size_mismatch || map_section(s.shndx) == nullptr ||
          !map_section(s.shndx)->has_file_data())
        continue;
      out->common_pending = false;
    }
    if (out->defined()) {
      if (s.bind() == STB_WEAK || out->bind == STB_WEAK) {
        // The first definition of a weak variable stays. This copy's bytes
        // remain in initialised data, but relocations inside it go, and in
        // uninitialised data it takes no space.
        dropped_ranges_[s.shndx].emplace_back(s.value, s.value + s.size);
        continue;
      }
      // (nvlink names the input that first mentioned the variable, an
      // `extern` declaration included; measured.)
      ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'",
                                  s.name, obj_.name, out->first_referenced_in->name));
      multiple_definition_ = true;
      continue;
    }
    OutputSection *sec = map_section(s.shndx);
    define(out, s, sec, sec_off_[s.shndx]);
    if (sec && sec->kind == SectionKind::DebugShared)
      out->value = s.value; // (-r: the alignment, as in the input)
    if (sec && sec->kind == SectionKind::SharedReserved) {
      out->value = s.value; // the alignment, until layout
      sec->shared_vars.push_back(out);
    }
  }
}

void InputMerger::merge_common_symbol(OutputSymbol *out, const ElfSymbol &s) {
  if (out->common) {
    if (s.size > out->size) {
      out->size = s.size;
      out->first_referenced_in = &obj_; // "first specified in" the larger one
    }
    return;
  }
  // (After a definition in initialised data a `.common` is ignored, after
  // one in uninitialised data it is a multiple definition: measured.)
  if (out->defined() && out->section->has_file_data())
    return;
  if (out->defined() || out->common_pending) {
    ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'",
                                s.name, obj_.name, out->defined_in->name));
    multiple_definition_ = true;
    return;
  }
  out->common = out->common_pending = true;
  ctx_.out.common_symbols.push_back(out);
  out->common_align = std::max<u64>(s.value, 1);
  out->size = s.size;
  out->other = s.other;
  out->type = s.type();
  out->bind = s.bind();
  out->defined_in = &obj_;
  out->def_order = (u64(obj_.index) << 32) | static_cast<u64>(&s - obj_.symbols.data());
}

void InputMerger::check_variable_kind(const ElfSymbol &s) {
  auto [it, fresh] = ctx_.out.variable_declarations.try_emplace(std::string(s.name));
  OutputModel::VariableDeclaration &decl = it->second;
  const bool shared = s.is_shared_variable();
  const bool defines = s.shndx != SHN_UNDEF;
  const u8 space = s.other & 0xe0;
  const bool managed = (s.other & STO_CUDA_MANAGED) != 0;
  if (fresh) {
    decl = {&obj_, space, managed, shared, s.size, defines || (shared && !s.size)};
    return;
  }
  auto report = [&](std::string_view what, std::string_view verb) {
    ctx_.diag.error(fmt::format("{} for '{}' in '{}', first {} in '{}'", what, s.name, obj_.name,
                                verb, decl.first->name));
    multiple_definition_ = true;
  };
  if (space != decl.space)
    report("Memory space doesn't match", "specified");
  if (managed != decl.managed)
    report("Managed attribute doesn't match", "specified");
  if (shared != decl.shared) {
    if (decl.size && s.size && decl.size != s.size)
      report("Size doesn't match", "specified");
    if (defines && decl.defined) {
      ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'",
                                  s.name, obj_.name, decl.first->name));
      multiple_definition_ = true;
    }
  }
  if (defines && !decl.defined) {
    decl.defined = true;
    decl.size = s.size;
  }
}

void InputMerger::merge_shared_variable(u32 i, const ElfSymbol &s) {
  // `extern __shared__ x[]` (undefined, no size) is dynamic shared
  // memory; a sized one, or a definition, is a namespace-scope
  // __shared__ variable laid out by the link.
  // (A sized `extern` alone does not create .nv_debug.shared.)
  // A variable first seen as dynamic (and not defined since) stays
  // dynamic when an input defines it: no static space, no
  // kernel counts as using dynamic shared memory through it (no
  // .nv.shared.<kernel> section) and every reference to it resolves
  // to all ones (measured, sm_80-sm_120: 0xffffff in the 24-bit
  // fields; docs/notes/diagnostics.md).
  // A sized `extern` seen after the dynamic one leaves it dynamic (an
  // ordinary dynamic array: the window after the static data).
  OutputSymbol *sym = extern_shared_symbol(s.name, s.shndx != SHN_UNDEF || !s.size, s.size != 0,
                                           (s.other & 3) != 1 /* STV_INTERNAL */,
                                           s.shndx != SHN_UNDEF && s.bind() == STB_WEAK);
  auto prior = ctx_.out.shared_declarations.find(s.name);
  const bool dynamic_first = prior != ctx_.out.shared_declarations.end() &&
                             !prior->second.size && !prior->second.defined;
  if (!sym->def_order) // where first seen, until defined
    sym->def_order = (u64(obj_.index) << 32) | i;
  const bool relocatable = relocatable_output(ctx_);
  if (is_prelinked_window_reference(s) && !sym->in_local_array &&
      (relocatable || (ctx_.opts.preserve_relocs && writes_debug_info(ctx_)))) {
    // A -r output's `externsharedinstance` (its kernels' dynamic windows):
    // the first one becomes a WEAK symbol, here in the local array (after
    // this input's local variables). -r: an STV_INTERNAL variable of
    // .nv_debug.shared with its value (-g: its start); without -g the
    // kernels get instances of their own (define_relocatable_dynamic_shared;
    // relocatable_second_stage_dynamic, glink_two_stage_dynamic with -r).
    // --preserve-relocs -g: an OBJECT STV_INTERNAL laid out as -g lays it
    // out, which place_debug_shared_symbols may drop again
    // (glink_two_stage_dynamic with --preserve-relocs -g).
    sym->bind = STB_WEAK;
    if (relocatable) {
      sym->prelinked_window = true;
      sym->section = find_section(ctx_, ".nv_debug.shared");
      sym->type = STT_CUDA_VARIABLE;
      sym->other = s.other;
      sym->value = s.value;
    } else {
      sym->type = STT_OBJECT;
      sym->other = 1; // STV_INTERNAL
    }
    sym->in_local_array = true;
    add_local_symbol(ctx_, sym);
    add_strtab_name(ctx_, sym->name);
  }
  const bool later_weak_copy = check_shared_declaration(s); // (the first definition stays)
  if (s.shndx != SHN_UNDEF && dynamic_first) {
    if (debug_shared_symbols(ctx_)) // (-g: its symbol has the defined size)
      sym->size = std::max(sym->size, s.size);
    sym->dynamic_then_defined = true;
    sym->extern_shared = true;
    sym->namespace_shared = false;
  } else if ((s.shndx != SHN_UNDEF || s.size) && !dynamic_first && !sym->dynamic_then_defined) {
    sym->extern_shared = false;
    sym->namespace_shared = true;
    sym->size = std::max(sym->size, s.size);
    if (s.shndx != SHN_UNDEF && !later_weak_copy) {
      sym->value = s.value; // the alignment, until layout
      sym->def_order = (u64(obj_.index) << 32) | i;
      // (-g: a sized `extern` seen first made the symbol before the section
      // existed; differential-ptx --mode g, seed 77.)
      if (sym->debug_shared_symbol && !sym->section)
        sym->section = find_section(ctx_, ".nv_debug.shared");
    }
  }
  sym_map_[i] = sym;
}

bool InputMerger::check_shared_declaration(const ElfSymbol &s) {
  auto [it, fresh] = ctx_.out.shared_declarations.try_emplace(std::string(s.name));
  OutputModel::SharedDeclaration &decl = it->second;
  bool defines = s.shndx != SHN_UNDEF;
  if (fresh) {
    decl.first = &obj_;
    decl.size = s.size;
    decl.defined = defines;
    decl.weak = defines && s.bind() == STB_WEAK;
    return false;
  }
  if (decl.size && s.size && decl.size != s.size) {
    ctx_.diag.error(fmt::format("Size doesn't match for '{}' in '{}', first specified in '{}'",
                                s.name, obj_.name, decl.first->name));
    multiple_definition_ = true;
  }
  if (!defines)
    return false;
  // (A function-scope __shared__ variable of a template kernel, such as
  // CUB's temp_storage, is a WEAK definition in every input that
  // instantiates the kernel: the first stays, as for weak variables of
  // other memory spaces; hec-tsne, hec-logic-rewrite.)
  if (decl.defined && (decl.weak || s.bind() == STB_WEAK))
    return true;
  if (decl.defined) {
    ctx_.diag.error(fmt::format("Multiple definition of '{}' in '{}', first defined in '{}'",
                                s.name, obj_.name, decl.first->name));
    multiple_definition_ = true;
    return false;
  }
  decl.defined = true;
  decl.weak = s.bind() == STB_WEAK;
  decl.size = s.size;
  return false;
}

OutputSymbol *InputMerger::extern_shared_symbol(std::string_view name, bool creates_section, bool sized,
                                               bool named, bool weak_definition) {
  if (creates_section && !find_section(ctx_, ".nv_debug.shared")) {
    OutputSection *sec =
        create_section(ctx_, ".nv_debug.shared", SHT_CUDA_SHARED, SHF_WRITE | SHF_ALLOC, 16);
    // (-g, --preserve-relocs: debug_link.h; -r decides later, relocatable.h:
    // preserve_relocs_dynamic_deleted, glink_dynamic_arrays with -r.)
    sec->symbol->removed = !debug_shared_symbols(ctx_) || relocatable_output(ctx_);
  }
  auto &map = ctx_.out.extern_shared_by_name;
  if (auto it = map.find(name); it != map.end())
    return it->second;
  OutputSymbol *sym = nullptr;
  // (--preserve-relocs without debug information: a dynamic array gets its
  // symbol after the layout, if at all; debug_link.h.)
  const bool symbol_now = preserved_shared_internal(ctx_) ? named && sized : creates_section || sized;
  if (debug_shared_symbols(ctx_) && symbol_now && name.find('\x1f') == std::string_view::npos) {
    // -g: the array is a global symbol of .nv_debug.shared (debug_link.h),
    // in the global array from here on; never found by name (a variable
    // of the same name in another memory space is an error of its own).
    sym = ctx_.arena.make<OutputSymbol>();
    sym->name = ctx_.arena.save(name);
    sym->bind = STB_GLOBAL;
    sym->create_seq = ctx_.out.next_seq++;
    if (named && weak_definition) {
      // (As other weak definitions: WEAK, in the local array, its name in
      // .strtab from here; weak_shared_template with -g.)
      sym->bind = STB_WEAK;
      sym->in_local_array = true;
      add_local_symbol(ctx_, sym);
      add_strtab_name(ctx_, sym->name);
    } else if (named) { // (an STV_INTERNAL one has one address but no symbol)
      ctx_.out.globals.push_back(sym);
    }
    sym->type = STT_OBJECT;
    sym->section = find_section(ctx_, ".nv_debug.shared");
    sym->debug_shared_symbol = true;
    if (preserved_shared_internal(ctx_))
      sym->other = 1; // STV_INTERNAL (shared_cross)
  } else {
    sym = ctx_.arena.make<OutputSymbol>();
    sym->name = ctx_.arena.save(name);
    sym->create_seq = ctx_.out.next_seq++; // (orders the undefined-reference errors)
    if (preserved_shared_internal(ctx_) && !relocatable_output(ctx_) && !sized &&
        name.find('\x1f') == std::string_view::npos)
      new_dynamic_arrays_.push_back(sym);
  }
  sym->extern_shared = true;
  map.emplace(sym->name, sym);
  return sym;
}

void InputMerger::merge_local_variable(u32 i, const ElfSymbol &s) {
  // A device function's own `__shared__` variable (a local in
  // .nv_debug.shared) is laid out like a namespace-scope one: one offset
  // in every kernel that reaches the function.
  if (s.is_shared_variable() && s.shndx != SHN_UNDEF && !relocatable_output(ctx_) &&
      s.shndx < obj_.elf.sections.size() && in_section(s.shndx).name == ".nv_debug.shared") {
    std::string key = fmt::format("{}\x1f{}", s.name, obj_.index); // locals are per input
    OutputSymbol *sym = extern_shared_symbol(key);
    // (--preserve-relocs: the resolved relocations name it; measured with
    // tools/differential-ptx --mode preserve-relocs.)
    const bool symbol = debug_shared_symbols(ctx_);
    if (symbol && !sym->debug_shared_symbol) {
      // -g: a local OBJECT symbol of its own name, created here
      // (debug_link.h); the layout still finds it by the per-input key.
      OutputSymbol *local = create_local(ctx_, s.name);
      local->type = STT_OBJECT;
      if (preserved_shared_internal(ctx_))
        local->other = static_cast<u8>((local->other & ~3) | 1); // STV_INTERNAL
      local->section = sym->section ? sym->section : find_section(ctx_, ".nv_debug.shared");
      local->debug_shared_symbol = true;
      ctx_.out.extern_shared_by_name[sym->name] = local;
      sym = local;
    }
    sym->extern_shared = false;
    sym->namespace_shared = true;
    sym->size = s.size;
    sym->value = s.value; // the alignment, until layout
    sym->def_order = (u64(obj_.index) << 32) | i;
    sym_map_[i] = sym;
    return;
  }
  OutputSection *sec = nullptr;
  // (The variables of a dropped copy's bank that stays an ordinary section
  // leave it to the section-symbol pass to create.)
  if (s.shndx != SHN_UNDEF && s.shndx < sec_map_.size() &&
      !(is_function_bank(in_section(s.shndx).name) &&
        lost_copy_of_unbanked_function(in_section(s.shndx).name)))
    sec = map_section(s.shndx);
  if (!sec && s.shndx != SHN_UNDEF && s.shndx < sec_map_.size() && is_dead_section(s.shndx)) {
    reserve_replaced_kernel_bank(s.shndx);
    // (-r, --preserve-relocs: the locals of a lost weak kernel copy's
    // parameter bank, its `_param`, stay symbols of the kept copy's bank;
    // weak_kernel_replaced.)
    if ((relocatable_output(ctx_) || ctx_.opts.preserve_relocs) &&
        in_section(s.shndx).name.starts_with(".nv.constant0."))
      sec = find_section(ctx_, in_section(s.shndx).name);
  }
  // (Per-function constant banks: ".nv.constant<N>.<f>"; not sm_100+'s
  // ".nv.constant.user", whose local variables are output symbols.)
  bool per_function_bank = sec && sec->kind == SectionKind::Constant &&
                           (names_per_function_bank(sec->name) ||
                            sec->name.starts_with(".nv.constant.optimizer."));
  // (-r: the variables of per-function banks and shared sections stay
  // local symbols of their sections.)
  // (-r: `.nv.ptx.const0.size` stays a local symbol, undefined, as a
  // CUDA variable worth all ones: measured.)
  // (-g without -suppress-debug-info: a kernel's own __shared__ variables
  // become local symbols; debug_link.h.)
  bool undefined_internal = !sec && s.shndx == SHN_UNDEF && s.type() == STT_OBJECT &&
                            (s.other & 3) == 1; // STV_INTERNAL
  bool kept_undefined = relocatable_output(ctx_) && undefined_internal && !s.name.empty();
  // (--preserve-relocs: so do they, named by .nv.resolvedrela entries.)
  bool shared_symbol = debug_shared_symbols(ctx_) || ctx_.opts.preserve_relocs;
  // (--preserve-relocs: a kernel's `_param` stays a local symbol of its
  // parameter bank, as with -r, and so do the `<k>.const_opt.*` symbols of
  // a kernel's own `.nv.constant2.<k>`; a device function's bank, copied
  // into kernels' banks, is not measured.)
  bool param_symbol = ctx_.opts.preserve_relocs && sec && !sec->detached &&
                      (sec->name.starts_with(".nv.constant0.") || sec->name.starts_with(".nv.constant2.") ||
                       sec->name.starts_with(".nv.constant.optimizer."));
  bool internal = s.name.empty() || (!sec && !kept_undefined) ||
                  (sec && !relocatable_output(ctx_) &&
                   ((sec->kind == SectionKind::Shared && !shared_symbol) ||
                    (per_function_bank && !param_symbol)));
  OutputSymbol *out = nullptr;
  if (kept_undefined) {
    out = create_local(ctx_, s.name);
    out->internal_undefined_object = true;
    out->type = STT_CUDA_VARIABLE;
    out->other = s.other;
    out->size = s.size;
    out->value = ~u64{0};
  } else if (internal) {
    out = ctx_.arena.make<OutputSymbol>();
    out->name = s.name;
    out->internal_undefined_object = !sec && s.shndx == SHN_UNDEF && s.type() == STT_OBJECT &&
                                     (s.other & 3) == 1; // STV_INTERNAL
  } else if ((relocatable_output(ctx_) || ctx_.opts.preserve_relocs) && sec &&
             sec->kind == SectionKind::Constant && sec->name.starts_with(".nv.constant.optimizer.")) {
    // (sm_100+ -r, --preserve-relocs: ptxas's "<f>.const_opt.<from>.<to>"
    // variables of an optimizer bank become "<bank>.<n>", numbered from 1
    // in each input over all its banks in symbol order: empty_rela_constant2,
    // recursion, glink_capsule_tokens, relocatable_weak_banks, weak_later_banks.)
    out = create_local(ctx_, ctx_.arena.save(fmt::format("{}.{}", sec->name, ++optimizer_variables_)));
  } else {
    out = create_local(ctx_, s.name);
  }
  sym_map_[i] = out;
  if (!sec)
    return;
  define(out, s, sec, sec_off_[s.shndx]);
  if (out->type == STT_CUDA_VARIABLE && !relocatable_output(ctx_)) {
    out->type = STT_OBJECT;
    out->other &= static_cast<u8>(~0xe0);
  }
  if (sec->kind == SectionKind::DebugShared)
    out->value = s.value; // (-r: the alignment, as in the input)
  // (--preserve-relocs: a kernel's own __shared__ variable, kept as a local
  // symbol, is written STV_INTERNAL; not when -g writes debug information.)
  if (preserved_shared_internal(ctx_) && !relocatable_output(ctx_) &&
      sec->kind == SectionKind::Shared && out->bind == STB_LOCAL)
    out->other = static_cast<u8>((out->other & ~3) | 1);
  if (sec->kind == SectionKind::Shared && (s.other & 0xe0) == STO_CUDA_SHARED) {
    out->value = s.value; // the alignment, until layout
    sec->shared_vars.push_back(out);
  }
}

// Among the definitions of a weak function, nvlink keeps the one with the
// lowest EIATTR_REGCOUNT (the first on ties), whatever the link order.
void choose_weak_definitions(Context &ctx) {
  std::map<std::string_view, std::pair<u32, u32>> best; // name -> (regs, input)
  for (InputObject *obj : ctx.inputs) {
    std::map<u32, u32> regs;
    if (const ElfSection *info = obj->elf.section_named(".nv.info"))
      for (const EiRecord &r : section_records(*obj, *info))
        if (r.attr == EIATTR_REGCOUNT && r.payload.size() >= 8)
          regs[r.payload_u32(0)] = r.payload_u32(1);
    for (u32 i = 1; i < obj->symbols.size(); i++) {
      const ElfSymbol &s = obj->symbols[i];
      if (s.type() != STT_FUNC || s.bind() != STB_WEAK || s.shndx == SHN_UNDEF)
        continue;
      u32 n = regs.count(i) ? regs[i] : ~0u;
      auto it = best.find(s.name);
      if (it == best.end() || n < it->second.first) {
        best[s.name] = {n, obj->index};
        ctx.out.weak_holders[s.name].push_back(obj->index);
      }
    }
  }
  for (auto &[name, choice] : best)
    *ctx.out.weak_winner.try_emplace(name, 0).first = choice.second;
}

void resolve_undefined(Context &ctx) {
  // (Reported in the order the symbols were first seen.)
  std::vector<std::pair<u32, std::string>> errors;
  for (OutputSymbol *sym : ctx.out.globals) {
    // (-g's __shared__ symbols: sized declarations are checked below.)
    if (sym->defined() || sym->debug_shared_symbol)
      continue;
    // (A relocatable link's output makes these references global: the
    // final link treats them the same; docs/notes/relocatable.md.)
    if (is_placeholder_name(sym->name)) {
      sym->removed = true;
      continue;
    }
    if (sym->bind == STB_WEAK || sym->name.starts_with(".nv.reservedSmem.")) {
      sym->bind = STB_GLOBAL;
      continue;
    }
    if (sym->type == STT_FUNC && is_driver_function(sym->name))
      continue;
    // Bound texture/sampler/surface references stay undefined; they get
    // header-index slots in the kernels' parameter banks (texture_slots.cpp).
    if (is_bound_texture_type(sym->type))
      continue;
    errors.emplace_back(sym->create_seq,
                        fmt::format("Undefined reference to '{}' in '{}'", sym->name,
                                    sym->first_referenced_in ? sym->first_referenced_in->name : ""));
  }
  // A namespace-scope `__shared__` array declared with a size (`extern
  // __shared__ int s[16]`) and defined nowhere is an undefined reference
  // too, unless an unsized (dynamic) declaration came first (measured).
  for (const auto &[name, decl] : ctx.out.shared_declarations)
    if (!decl.defined && decl.size)
      if (auto it = ctx.out.extern_shared_by_name.find(name); it != ctx.out.extern_shared_by_name.end())
        errors.emplace_back(it->second->create_seq,
                            fmt::format("Undefined reference to '{}' in '{}'", name, decl.first->name));
  std::stable_sort(errors.begin(), errors.end(),
                   [](const auto &a, const auto &b) { return a.first < b.first; });
  for (auto &e : errors)
    ctx.out.undefined_errors.push_back(std::move(e.second));
}

} // namespace dlink
