// Stage 2: merging inputs (merge.h).
//
// Consumes ctx.inputs; produces ctx.out: output sections with their merged
// bytes, global symbols resolved across inputs, relocations re-targeted at
// output sections and symbols, .nv.info records, call-graph edges and
// prototypes. Nothing here knows final addresses or section indices.
//
// Each input is merged the way nvlink merges it, because the order in which
// sections and symbols are created is visible in the output:
//   pass 1  function symbols, in symbol-table order: the function's .text
//           section, its .nv.info.<f> and, for kernels, .nv.shared.<k>;
//   pass 2  other non-section symbols (variables), creating the sections
//           that hold them;
//   pass 3  section symbols, creating the remaining sections;
//   pass 4  the section headers: .nv.info records, relocations, call graph,
//           prototypes, .nv.compat and notes.
// Data sections with the same name are concatenated, each input's part
// aligned to its own alignment.
//
// The per-input work is InputMerger's (link/input_merger.h, src/link/).
#include "merge.h"
#include "arch_format.h"

#include "dead_code.h"
#include "input_prefetch.h"
#include "link/input_merger.h"
#include "output_model.h"
#include "output/synthetic.h"
#include "pass_timer.h"
#include "relocatable.h"
#include "validate.h"

#include <algorithm>

namespace dlink {

bool keeps_weak_copy_relocs(std::string_view debug_section) {
  return debug_section.ends_with("debug_info") || debug_section.ends_with("debug_loc");
}

// Per input, before the merge (in parallel for every input: it reads the
// input alone).
static void prepare_merge(InputObject &obj) {
  auto sorted_unique = [](std::vector<std::string_view> &v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  // Local functions (e.g. the math library's __internal_* helpers) may
  // exist in several inputs under one name: each input's copy gets its own
  // sections, however the names collide.
  InputObject::MergePrep &prep = obj.merge_prep;
  for (u32 i = 1; i < obj.symbols.size(); i++) {
    const ElfSymbol &s = obj.symbols[i];
    if (s.type() == STT_FUNC && s.bind() == STB_LOCAL && s.shndx != SHN_UNDEF && s.shndx < obj.elf.sections.size())
      prep.local_function_sections.push_back(obj.elf.sections[s.shndx].name);
  }
  sorted_unique(prep.local_function_sections);
  // Section names held twice (a -r output's local functions of one name).
  std::vector<std::string_view> names;
  names.reserve(obj.elf.sections.size());
  for (const ElfSection &sec : obj.elf.sections)
    names.push_back(sec.name);
  std::sort(names.begin(), names.end());
  for (size_t i = 1; i < names.size(); i++)
    if (names[i] == names[i - 1])
      prep.repeated_section_names.push_back(names[i]);
  sorted_unique(prep.repeated_section_names);
  // The functions defined here, and the sections named after one.
  for (u32 k = 1; k < obj.symbols.size(); k++)
    if (obj.symbols[k].type() == STT_FUNC && obj.symbols[k].shndx != SHN_UNDEF)
      prep.function_definitions.try_emplace(obj.symbols[k].name, k);
  prep.symbol_hashes.resize(obj.symbols.size());
  for (u32 k = 0; k < obj.symbols.size(); k++)
    prep.symbol_hashes[k] = NameHash{}(obj.symbols[k].name);
  prep.section_hashes.resize(obj.elf.sections.size());
  for (u32 i = 0; i < obj.elf.sections.size(); i++)
    prep.section_hashes[i] = NameHash{}(obj.elf.sections[i].name);
  prep.named_function.assign(obj.elf.sections.size(), 0);
  prep.kinds.resize(obj.elf.sections.size());
  for (u32 i = 0; i < obj.elf.sections.size(); i++) {
    std::string_view name = obj.elf.sections[i].name;
    std::string_view fn;
    prep.kinds[i] = classify_section(name, obj.elf.sections[i].type);
    switch (prep.kinds[i]) {
    case SectionKind::Text:
      fn = name.substr(6);
      break;
    case SectionKind::FunctionInfo:
      fn = name.substr(9);
      break;
    case SectionKind::Constant: // (a kernel's parameter bank, a function's own bank)
      if (name.starts_with(".nv.constant0.") || name.starts_with(".nv.constant2."))
        fn = name.substr(14);
      break;
    case SectionKind::Shared:
      fn = name.substr(11);
      break;
    default:
      continue;
    }
    if (auto it = prep.function_definitions.find(fn); it != prep.function_definitions.end())
      prep.named_function[i] = it->second;
  }
}

void InputMerger::run() {
  // Weak functions an earlier input already defined (live or not).
  for (u32 i = 1; i < obj_.symbols.size(); i++) {
    const ElfSymbol &s = obj_.symbols[i];
    if (s.type() == STT_FUNC && s.bind() == STB_WEAK && s.shndx != SHN_UNDEF &&
        ctx_.out.weak_function_names.contains(s.name) && !is_weak_winner(s.name))
      later_weak_copy_.insert(i);
  }
  merge_function_symbols();
  // (Which weak copies' debug records go is settled by the function
  // symbols' merge.)
  obj_.dropped_debug_copies.assign(obj_.symbols.size(), false);
  for (u32 k = 0; k < obj_.symbols.size(); k++)
    obj_.dropped_debug_copies[k] = debug_copy_dropped(k);
  merge_other_symbols();
  merge_section_symbols();
  merge_section_contents();
  const OutputSymbol *last_global = ctx_.out.globals.empty() ? nullptr : ctx_.out.globals.back();
  for (OutputSymbol *sym : new_dynamic_arrays_)
    ctx_.out.preserved_dynamic_arrays.emplace_back(sym, last_global);
  // (The merger's last use of its tables: the input keeps them.)
  obj_.sym_map = std::move(sym_map_);
  obj_.sec_map = std::move(sec_map_);
  obj_.sec_off = std::move(sec_off_);
  obj_.discarded = std::move(discarded_);
  obj_.dropped_ranges = std::move(dropped_ranges_);
  obj_.kept_ranges = std::move(frame_ranges_);
  for (const ElfSymbol &s : obj_.symbols)
    if (s.type() == STT_FUNC && s.bind() == STB_WEAK && s.shndx != SHN_UNDEF)
      ctx_.out.weak_function_names.emplace(s.name, true);
}

// sm_100+: the relocations of the line tables (.rela.debug_line,
// .rela.nv_debug_line_sass) come in offset order (measured, with the
// sequences reordered by filter_line_table; sm_75-sm_90a list them most
// recent first like every other section).
static bool line_table_relocs(const Context &ctx, const OutputSection &sec) {
  return arch_format(ctx.arch).line_table_relocs_in_offset_order && sec.kind == SectionKind::Reloc && sec.target &&
         (sec.target->name == ".debug_line" || sec.target->name == ".nv_debug_line_sass");
}

// `.common` variables get their space at the end of .nv.global (created
// there if no input has one), the one most recently first seen as common
// first, each
// aligned to its first occurrence's alignment (measured: section alignment
// max(section, symbol), symbol offset aligned up from the section's size).
static void allocate_common_symbols(Context &ctx) {
  for (auto it = ctx.out.common_symbols.rbegin(); it != ctx.out.common_symbols.rend(); ++it) {
    OutputSymbol *sym = *it;
    if (!sym->common_pending)
      continue;
    sym->common_pending = false;
    sym->common = false;
    OutputSection *sec = find_section(ctx, ".nv.global");
    if (!sec)
      sec = create_section(ctx, ".nv.global", SHT_CUDA_GLOBAL, SHF_WRITE | SHF_ALLOC, sym->common_align, 0);
    sec->align = std::max(sec->align, sym->common_align);
    u64 offset = align_to(sec->size, sym->common_align);
    sec->size = offset + sym->size;
    sym->section = sec;
    sym->value = offset;
  }
}

void validate_inputs(Context &ctx) {
  for (InputObject *obj : ctx.inputs) {
    try {
      validate_cubin(*obj);
    } catch (const InputError &e) {
      ctx.diag.fatal(fmt::format("Corrupt input file '{}': {}", obj->name, e.what()));
    }
  }
}

void merge_inputs(Context &ctx) {
  StepTimer timer(ctx, "merge_inputs");
  // Most input sections and symbols become output ones: size the name
  // tables once instead of rehashing them as they grow.
  size_t sections = 0, symbols = 0;
  for (const InputObject *obj : ctx.inputs) {
    sections += obj->elf.sections.size();
    symbols += obj->symbols.size();
  }
  ctx.out.section_by_name.reserve(sections);
  ctx.out.global_by_name.reserve(symbols);
  create_skeleton(ctx);
  ctx.out.constant_bank.enabled =
      kernel_filter(ctx).mode != KernelFilter::Mode::All && !relocatable_output(ctx);
  ctx.par.for_each_index(ctx.inputs.size(), [&](size_t i) { prepare_merge(*ctx.inputs[i]); });
  timer.step("prepare");
  MergeBacklog backlog;
  ctx.out.cuinfo_sm = ctx.arch.sm;
  constexpr size_t kReleaseBatch = 64;
  std::vector<std::span<const u8>> merged;
  for (InputObject *obj : ctx.inputs) {
    InputMerger merger(ctx, *obj, backlog);
    ctx.out.cuinfo_sm = lower_cuinfo_sm(*obj, ctx.out.cuinfo_sm);
    try {
      merger.run();
    } catch (const InputError &e) {
      ctx.diag.fatal(fmt::format("Corrupt input file '{}': {}", obj->name, e.what()));
    }
    // (What the output keeps of an input is copied once it is merged.)
    merged.push_back(obj->bytes);
    if (merged.size() == kReleaseBatch) {
      inputs::release_input_pages(ctx, merged);
      merged.clear();
    }
    // nvlink gives up after the first input whose merge reported errors.
    if (merger.multiple_definition_)
      ctx.diag.fatal("merge_elf failed");
  }
  timer.step("inputs");
  // Relocations and records converted, the output sections in parallel.
  run_merge_backlog(ctx, backlog);
  timer.step("conversions");
  // What the validation parsed for the merge is not read again (a later
  // section_relocs/section_records would parse it anew), and the inputs'
  // pages are not needed any more: both go before the output grows.
  ctx.par.for_each_index(ctx.inputs.size(), [&](size_t i) {
    ctx.inputs[i]->parsed = {};
    ctx.inputs[i]->merge_prep.function_definitions = {};
    ctx.inputs[i]->merge_prep.named_function = {};
    ctx.inputs[i]->merge_prep.kinds = {};
    ctx.inputs[i]->merge_prep.symbol_hashes = {};
    ctx.inputs[i]->merge_prep.section_hashes = {};
  });
  inputs::release_input_pages(ctx);
  timer.step("release");
  allocate_common_symbols(ctx);
  // Relocations and per-function records are kept in nvlink's list order:
  // each new entry goes to the front. (Each section on its own.)
  ctx.par.for_each_index(ctx.out.sections.size(), [&](size_t i) {
    OutputSection *sec = ctx.out.sections[i];
    if (line_table_relocs(ctx, *sec))
      std::stable_sort(sec->relocs.begin(), sec->relocs.end(),
                       [](const OutputReloc &a, const OutputReloc &b) { return a.offset < b.offset; });
    else
      std::reverse(sec->relocs.begin(), sec->relocs.end());
    std::reverse(sec->records.begin(), sec->records.end());
    for (InfoRecord &r : sec->tail_records) {
      r.bank_tail = true;
      sec->records.push_back(std::move(r));
    }
    sec->tail_records.clear();
  }, 256);
  timer.step("order");
}

} // namespace dlink
