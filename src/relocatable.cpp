// -r (--relocatable-link): the stages only a relocatable link runs
// (relocatable.h; measured on nvlink 13.0.88, docs/notes/relocatable.md).
#include "relocatable.h"

#include "dead_code.h"
#include "debug_link.h"
#include "layout.h"
#include "output_model.h"

#include "mercury/relocatable_link.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace dlink {

bool is_dynamic_array(const OutputSymbol *s) {
  return s && s->extern_shared && !s->namespace_shared && !s->dynamic_then_defined && !s->size;
}

bool is_prelinked_window_reference(const ElfSymbol &s) {
  return s.is_shared_variable() && s.shndx == SHN_UNDEF && s.bind() == STB_WEAK && (s.other & 3) == 1 &&
         !s.size;
}

void write_unified_entries(Context &ctx, OutputSection &sec) {
  write_unified_entries(ctx, sec, sec, [](const OutputSymbol *s) { return s->index; });
}

void write_unified_entries(Context &ctx, OutputSection &sec, const OutputSection &sass,
                           const std::function<u32(const OutputSymbol *)> &index) {
  for (const OutputModel::UnifiedEntry &e : ctx.out.unified_entries) {
    if (e.section != &sass || e.offset + kUnifiedEntrySize > sec.data.size())
      continue;
    write_le<u32>(sec.data.data() + e.offset, index(e.symbol));
    write_le<u32>(sec.data.data() + e.offset + 4, 7);
    write_le<u64>(sec.data.data() + e.offset + 8, e.symbol->value);
  }
}

void place_passed_over_bank_copies(Context &ctx) {
  using Role = OutputModel::BankPart::Role;
  for (const InputObject *in : ctx.inputs)
    for (const ElfSymbol &s : in->symbols) {
      if (s.type() != STT_FUNC || s.bind() != STB_WEAK || s.shndx == SHN_UNDEF ||
          !ctx.out.passed_over_before_kept(s.name, in->index))
        continue;
      auto relocs = in->elf.find_section(".nv.merc.rela.nv.constant.optimizer." + std::string(s.name));
      const ElfSection *own = in->elf.section_named(".nv.constant2." + std::string(s.name));
      OutputModel::RelocatableBank *bank = nullptr;
      for (auto &b : ctx.out.relocatable_banks)
        if (b.function == s.name)
          bank = &b;
      if (!relocs || !own || !bank)
        continue;
      // Where it would have gone: after the parts merged before it.
      u64 end = 0;
      auto at = bank->parts.begin();
      for (; at != bank->parts.end() && at->input->index < in->index; ++at)
        if (const ElfSection *part = at->input->elf.section_named(own->name))
          end = std::max(end, at->offset + part->data.size());
      u64 offset = align_to(end, std::max<u64>(own->addralign, 1));
      for (const ElfReloc &r : read_relocs(in->elf.sections[*relocs]))
        if (offset + r.offset + 4 > bank->section->size)
          ctx.diag.fatal("Internal error: relocation is past end of offset");
      bank->parts.insert(at, {in, offset, Role::PassedOver});
    }
}

// Whether the input is a relocatable link's output: the first note of its
// .note.nv.tkinfo records a command line with -r (nvlink writes its own
// canonical command line there; ptxas and the compilers have no -r).
bool written_by_relocatable_link(const InputObject &in) {
  const ElfSection *sec = in.elf.section_named(".note.nv.tkinfo");
  if (!sec || sec->type != SHT_NOTE)
    return false;
  std::vector<ElfNote> notes = read_notes(*sec);
  if (notes.empty() || notes[0].type != 2000 || notes[0].desc.size() < 24)
    return false;
  std::span<const u8> desc = notes[0].desc;
  u64 off = u64{read_le<u32>(desc.data() + 20)} + 24; // the command line
  if (off >= desc.size())
    return false;
  std::string_view area(reinterpret_cast<const char *>(desc.data()) + off, desc.size() - off);
  std::string_view line = area.substr(0, area.find('\0'));
  for (size_t at = 0; at < line.size();) {
    size_t end = line.find(' ', at);
    if (end == std::string_view::npos)
      end = line.size();
    if (line.substr(at, end - at) == "-r")
      return true;
    at = end + 1;
  }
  return false;
}

void check_prelinked_inputs(Context &ctx) {
  for (InputObject *in : ctx.inputs) {
    bool relocatable = in->tkinfo_says_relocatable ? *in->tkinfo_says_relocatable
                                                   : written_by_relocatable_link(*in);
    if (!relocatable)
      continue;
    ctx.out.prelinked_input = true;
    in->prelinked = true;
    // (Local functions of several inputs, several sections of one name:
    // each copy keeps its own sections, relocatable_two_stage_locals,
    // _statics, glink_two_stage_statics; sm_100+: their Mercury symbols pair
    // with the SASS ones in order, mercury.cpp map_symbols.)
  }
}

void finish_relocatable(Context &ctx) {
  // The __constant__ variables' 64 KiB limit holds with -r too (an error,
  // no output; measured on err_late_order, where the executable link's
  // other late errors, stack and shared sizes, do not appear with -r).
  constexpr u64 kMaxUserConstant = 0x10000;
  for (std::string_view bank : {".nv.constant3", ".nv.constant.user"}) // (sm_100+: the latter)
    if (const OutputSection *user = find_section(ctx, bank); user && user->size > kMaxUserConstant)
      ctx.diag.error(fmt::format("File uses too much global constant data (0x{:x} bytes, 0x{:x} max)",
                                 user->size, kMaxUserConstant));
  // A function's EXTERNS record keeps the symbols still undefined and the
  // kernels (a device-side launch's target); it goes when none is left.
  for (OutputSection *sec : ctx.out.sections) {
    if (sec->kind != SectionKind::FunctionInfo)
      continue;
    for (InfoRecord &r : sec->records)
      if (r.attr == EIATTR_EXTERNS)
        std::erase_if(r.syms, [](const OutputSymbol *s) { return s && s->defined() && !s->is_entry(); });
    std::erase_if(sec->records, [](const InfoRecord &r) {
      return r.attr == EIATTR_EXTERNS && r.syms.empty();
    });
    for (InfoRecord &r : sec->records)
      if (r.attr == EIATTR_EXTERNS)
        r.payload.resize(4 * r.syms.size());
  }
  // Undefined symbols: a weak reference becomes a global one, and an
  // undefined CUDA variable's value is all ones. (One without a memory
  // space, a relocatable input's __UFT*/__UDT* or .nv.reservedSmem.*
  // reference on sm_100+, is left to finish_relocatable_mercury.)
  for (OutputSymbol *sym : ctx.out.globals) {
    if (sym->defined() || sym->removed)
      continue;
    if (sym->bind == STB_WEAK)
      sym->bind = STB_GLOBAL;
    if (sym->type == STT_CUDA_VARIABLE && (sym->other & 0xe0))
      sym->value = ~u64{0};
  }
  // .note.nv.tkinfo: nvlink's own note only, not the inputs'.
  ctx.out.input_tkinfo_notes.clear();
  create_callgraph_sections(ctx);
  // Prototypes: every function's but the address-taken ones' (those are
  // described by the call graph), in the order the functions first appear
  // in the inputs' symbol tables (link order, then symbol index); an empty
  // .nv.prototype is not written.
  OutputModel &out = ctx.out;
  std::erase_if(out.prototypes, [&](const auto &p) { return out.address_taken_syms.count(p.first); });
  std::unordered_map<const OutputSymbol *, u64> first_seen;
  for (const InputObject *in : ctx.inputs)
    for (size_t i = 0; i < in->sym_map.size(); i++)
      if (in->sym_map[i])
        first_seen.try_emplace(in->sym_map[i], (u64(in->index) << 32) | i);
  auto seen_at = [&](const OutputSymbol *s) {
    auto it = first_seen.find(s);
    return it == first_seen.end() ? ~u64{0} : it->second;
  };
  std::stable_sort(out.prototypes.begin(), out.prototypes.end(),
                   [&](const auto &x, const auto &y) { return seen_at(x.first) < seen_at(y.first); });
  if (out.prototypes.empty())
    find_section(ctx, ".nv.prototype")->removed = true;
  // Kernels' shared sections that hold nothing are not written.
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Shared && sec->size == 0 && sec->shared_vars.empty())
      sec->removed = true;
}

namespace {

constexpr u64 kDynamicWindowAlign = 16;

// What nvlink -r makes of a shared section holding `content` bytes of
// variables in `size` bytes when a dynamic array joins it: while the
// variables take at most 16 bytes, a 16-byte slot is put before them
// (measured, sm_75-sm_120, one to three variables of 1-16-byte alignment:
// .nv_debug.shared 2 -> 0x11, 0xd -> 0x1d, 0x10 -> 0x18 or 0x20, 0x11 ->
// 0x11; a kernel's section likewise, then aligned to 16). `window`: 16,
// or the variables' alignment when larger (dynamic_window); a section that
// already has a smaller one (a -r input's) gets the new one in its place
// (0x20 + 0x20 -> 0x30 + 0x20: relocatable_second_stage_overaligned).
u64 size_with_dynamic_slot(u64 size, u64 content, u64 window = kDynamicWindowAlign) {
  return content <= window ? window + content : size;
}

// -r of a -r output whose kernels refer to `externsharedinstance`: the
// first reference's value, which becomes the merge's WEAK variable of
// .nv_debug.shared (its alignment, as any variable's there).
std::optional<u64> prelinked_window_value(const Context &ctx) {
  for (const InputObject *in : ctx.inputs)
    for (const ElfSymbol &s : in->symbols)
      if (is_prelinked_window_reference(s))
        return s.value;
  return std::nullopt;
}

// The bytes of `vars` packed from 0, larger alignment first (their
// st_value is the alignment).
u64 packed_size(std::vector<const OutputSymbol *> vars) {
  std::stable_sort(vars.begin(), vars.end(),
                   [](const OutputSymbol *a, const OutputSymbol *b) { return a->value > b->value; });
  u64 end = 0;
  for (const OutputSymbol *v : vars)
    end = align_to(end, std::max<u64>(v->value, 1)) + v->size;
  return end;
}

// A kernel's shared section, kept for its dynamic arrays (created if no
// input had it: then without a section symbol, measured; `restored` says so).
OutputSection *kernel_shared_section(Context &ctx, OutputSymbol *kernel, bool *restored = nullptr) {
  std::string name = fmt::format(".nv.shared.{}", kernel->name);
  OutputSection *shared = find_section(ctx, name);
  if (!shared) {
    shared = create_section(ctx, name, SHT_CUDA_SHARED, SHF_WRITE | SHF_ALLOC | SHF_INFO_LINK, 1);
    shared->func = kernel;
  }
  if (restored)
    *restored = shared->removed;
  if (shared->removed) { // (finish_relocatable dropped it empty: no input had it)
    shared->removed = false;
    shared->symbol->removed = true;
  } else if (!shared->input_section_symbol) {
    // (An input's section without a section symbol, as a -r output writes
    // a padding-only one, stays without: relocatable_second_stage_dynamic.)
    shared->symbol->removed = true;
  }
  return shared;
}

// The size of a kernel's section with its dynamic window; returns the
// packed size of the kernel's own variables.
u64 add_dynamic_window(OutputSection *shared, u64 window = kDynamicWindowAlign) {
  std::vector<const OutputSymbol *> own(shared->shared_vars.begin(), shared->shared_vars.end());
  u64 packed = packed_size(own);
  shared->align = std::max(shared->align, window);
  shared->size = align_to(size_with_dynamic_slot(shared->size, packed, window), kDynamicWindowAlign);
  return packed;
}

// The kernels whose own code refers to a dynamic array.
std::vector<OutputSymbol *> kernels_using_dynamic_arrays(const Context &ctx) {
  std::vector<OutputSymbol *> kernels;
  for (const OutputSection *rel : ctx.out.sections)
    if (rel->kind == SectionKind::Reloc && rel->target && rel->target->func &&
        rel->target->func->is_entry() && !rel->removed &&
        std::any_of(rel->relocs.begin(), rel->relocs.end(),
                    [](const OutputReloc &r) { return is_dynamic_array(r.sym); }) &&
        std::find(kernels.begin(), kernels.end(), rel->target->func) == kernels.end())
      kernels.push_back(rel->target->func);
  return kernels;
}

// The largest alignment among the variables of .nv_debug.shared, the
// dynamic arrays (and a -r input's window) aside.
u64 largest_variable_alignment(const Context &ctx, const OutputSection *debug) {
  u64 max_align = 0;
  for (const std::vector<OutputSymbol *> *list : {&ctx.out.locals, &ctx.out.globals})
    for (const OutputSymbol *v : *list)
      if (v->section == debug && !v->is_section_symbol && !v->removed && !is_dynamic_array(v))
        max_align = std::max(max_align, v->value); // (-r: the alignment)
  return max_align;
}

// The same with a -r input's window, a variable of its value there.
u64 variables_alignment(const Context &ctx, const OutputSection *debug) {
  return std::max(largest_variable_alignment(ctx, debug), prelinked_window_value(ctx).value_or(0));
}

// The dynamic window: 16 bytes, or the variables' alignment where larger,
// as the threshold and the slot of size_with_dynamic_slot and as the
// sections' alignment; the users' sizes stay aligned to 16 (measured,
// sm_90: a -r input's window, one to three kernels of 0-0x74 bytes with
// first values 0-0x80: .nv_debug.shared 0x10 -> the value, a kernel of
// 0x20 with 0x14 bytes -> 0x40 beside 0x20 and 0x50 beside 0x30, one of
// 0x30 beside 0x20 unchanged; relocatable_second_stage_dynamic; a
// namespace-scope variable aligned to 0x20: a kernel of 0x14 bytes not
// using the array -> 0x34, dynamic_shared_overaligned_part).
u64 dynamic_window(const Context &ctx, const OutputSection *debug) {
  return std::max(variables_alignment(ctx, debug), kDynamicWindowAlign);
}

// A namespace-scope variable aligned to the window's 16: every kernel gets
// a section with the window, one using no shared memory too (as in an
// executable link; dynamic_shared_every_kernel with -r and -r -g); a kernel
// with variables of its own keeps its size, past 16 bytes not rounded up
// (shared_order's kl, 0x25). Aligned past it: no section of a kernel using
// the arrays (`users`) without variables of its own is written
// (dynamic_shared_overaligned; the executable link keeps them only where
// the reserved window is content), and the other kernels' sections get the
// window (no section is made). A -r input's window counts as such a
// variable of its value (relocatable_second_stage_dynamic). -g:
// `startless`, the users' sections the array's start left empty; the
// others stay (relocatable_second_stage_dynamic_g).
void windows_beside_aligned_variables(Context &ctx, const OutputSection *debug,
                                      const std::set<const OutputSymbol *> &users,
                                      const std::set<const OutputSection *> *startless = nullptr) {
  const u64 max_align = variables_alignment(ctx, debug);
  // The other kernels, weak ones too (in the local array of a -r output:
  // HeCBench's moe-align, template kernels beside a WEAK function-scope
  // variable and two dynamic arrays).
  std::vector<OutputSymbol *> others;
  for (const std::vector<OutputSymbol *> *list : {&ctx.out.locals, &ctx.out.globals})
    for (OutputSymbol *kernel : *list)
      if (kernel->is_entry() && kernel->defined() && !kernel->removed && !users.count(kernel))
        others.push_back(kernel);
  if (max_align == kDynamicWindowAlign)
    for (OutputSymbol *kernel : others) {
      OutputSection *shared = kernel_shared_section(ctx, kernel);
      std::vector<const OutputSymbol *> own(shared->shared_vars.begin(), shared->shared_vars.end());
      shared->size = size_with_dynamic_slot(shared->size, packed_size(own));
      shared->align = std::max(shared->align, kDynamicWindowAlign);
    }
  if (max_align <= kDynamicWindowAlign)
    return;
  for (OutputSymbol *kernel : others)
    if (OutputSection *shared = find_section(ctx, fmt::format(".nv.shared.{}", kernel->name));
        shared && !shared->removed) {
      std::vector<const OutputSymbol *> own(shared->shared_vars.begin(), shared->shared_vars.end());
      shared->size = size_with_dynamic_slot(shared->size, packed_size(own), max_align);
      shared->align = std::max(shared->align, max_align);
    }
  for (const OutputSymbol *kernel : users)
    if (OutputSection *shared = find_section(ctx, fmt::format(".nv.shared.{}", kernel->name));
        shared && shared->shared_vars.empty() && (!startless || startless->count(shared)))
      shared->removed = true;
}

} // namespace

void define_relocatable_dynamic_shared(Context &ctx) {
  // (An array an input defines after its dynamic declaration too: nvlink
  // writes it as a variable of .nv_debug.shared at 0 with the defined size,
  // its references resolved to all ones as in an executable link;
  // shared_dynamic_then_defined, glink_dynamic_then_defined with -r.)
  std::vector<OutputSymbol *> arrays;
  for (auto &[name, sym] : ctx.out.extern_shared_by_name)
    if (is_dynamic_array(sym) || (sym->extern_shared && sym->dynamic_then_defined))
      arrays.push_back(sym);
  if (arrays.empty())
    return;
  std::sort(arrays.begin(), arrays.end(),
            [](const OutputSymbol *a, const OutputSymbol *b) { return a->def_order < b->def_order; });
  OutputSection *debug = find_section(ctx, ".nv_debug.shared");
  u64 content = 0; // the bytes of the variables in it
  for (const std::vector<OutputSymbol *> *list : {&ctx.out.locals, &ctx.out.globals})
    for (const OutputSymbol *s : *list)
      if (s->section == debug && !s->is_section_symbol && !s->removed)
        content += s->size;
  const u64 window = dynamic_window(ctx, debug);
  debug->align = std::max(debug->align, window);
  // Its section symbol stays where an input brought the section with its
  // symbol (the array's declaration made it first; measured:
  // relocatable_dynamic_shared; not a -r output's section, which has none:
  // relocatable_second_stage_dynamic).
  if (std::any_of(ctx.inputs.begin(), ctx.inputs.end(), [](const InputObject *in) {
        std::optional<u32> index = in->elf.find_section(".nv_debug.shared");
        return index && std::any_of(in->symbols.begin(), in->symbols.end(), [&](const ElfSymbol &s) {
                 return s.type() == STT_SECTION && s.shndx == *index;
               });
      }))
    debug->symbol->removed = false;
  // (Past the window: the variables' bytes, without the padding between
  // the inputs' parts or a window one of them has: shared_order, 0x743 for
  // parts of 0x163, 0x540 and 0xa0; differential-ptx --mode r, seed 9, and
  // --mode r3, seed 23. An array defined after its dynamic declaration
  // counts with its defined size: shared_dynamic_then_defined, 0x40.)
  for (const OutputSymbol *sym : arrays)
    if (sym->dynamic_then_defined && sym->section != debug)
      if (auto decl = ctx.out.shared_declarations.find(sym->name); decl != ctx.out.shared_declarations.end())
        content += decl->second.size;
  debug->size = size_with_dynamic_slot(content, content, window);
  // -g: the arrays are laid out as an executable link lays them out (one
  // start per array, the kernels' sections grown to it), the references
  // applied, no instances (glink_dynamic_arrays, _program_wide, glink_shared
  // with -r). The merge made each array's symbol where it first saw it.
  // (The window's rule then applies to the kernels using one directly:
  // glink_dynamic_arrays' k2, 0x10 bytes of its own, is 0x20. A section no
  // input had keeps its section symbol when the layout grew it:
  // dyn_shared_debug_info_nog's k2 with -r -g, not glink_shared's kdyn.)
  if (writes_debug_info(ctx)) {
    std::vector<std::pair<OutputSection *, bool>> windows;
    std::set<const OutputSymbol *> users;
    for (OutputSymbol *kernel : kernels_using_dynamic_arrays(ctx)) {
      users.insert(kernel);
      bool restored = false;
      OutputSection *shared = kernel_shared_section(ctx, kernel, &restored);
      windows.emplace_back(shared, restored || shared->symbol->removed);
      // (The array starts past the kernel's data, aligned to 16, not past a
      // window its section already has: a -r input's (its reference's
      // value; glink_two_stage_dynamic with -r) or ptxas's beside a
      // variable aligned past 16 (dynamic_shared_overaligned_part).)
      std::vector<const OutputSymbol *> own(shared->shared_vars.begin(), shared->shared_vars.end());
      shared->size = align_to(packed_size(own), kDynamicWindowAlign);
    }
    layout_dynamic_shared(ctx);
    place_debug_shared_symbols(ctx);
    // (The window's slot then follows the array's start, not the
    // variables: a kernel without variables grown to 0x10 by a function it
    // shares is 0x20; relocatable_debug_window_start.)
    std::set<const OutputSection *> startless;
    for (auto &[shared, restored] : windows) {
      if (shared->size == 0)
        startless.insert(shared);
      if (restored && shared->size > 0)
        shared->symbol->removed = false;
      shared->align = std::max(shared->align, window);
      shared->size = align_to(size_with_dynamic_slot(shared->size, shared->size, window), kDynamicWindowAlign);
    }
    for (OutputSymbol *sym : arrays) {
      sym->section = debug;
      sym->type = STT_CUDA_VARIABLE;
      if (!sym->prelinked_window) // (STV_INTERNAL, as the merge made it)
        sym->other = STO_CUDA_SHARED;
    }
    windows_beside_aligned_variables(ctx, debug, users, &startless);
    return;
  }
  // Each array: a GLOBAL variable of .nv_debug.shared, value and size 0,
  // among the globals where the merge first saw it.
  for (OutputSymbol *sym : arrays) {
    if (sym->prelinked_window)
      continue; // (defined by the merge)
    sym->section = debug;
    sym->bind = STB_GLOBAL;
    sym->type = STT_CUDA_VARIABLE;
    sym->value = 0;
    sym->other = STO_CUDA_SHARED;
    if (sym->dynamic_then_defined)
      if (auto decl = ctx.out.shared_declarations.find(sym->name); decl != ctx.out.shared_declarations.end())
        sym->size = decl->second.size;
    auto at = std::find_if(ctx.out.globals.begin(), ctx.out.globals.end(),
                           [&](const OutputSymbol *g) { return g->create_seq > sym->create_seq; });
    ctx.out.globals.insert(at, sym);
    ctx.out.global_by_name.emplace(sym->name, sym);
  }
  // The kernels' own references, relocation section by relocation section.
  // (One symbol per kernel, for its .rel and .rela sections alike.)
  std::vector<OutputSymbol *> instances;
  auto &instance_of = ctx.out.dynamic_shared_instance;
  for (OutputSection *rel : ctx.out.sections) {
    if (rel->kind != SectionKind::Reloc || !rel->target || !rel->target->func ||
        !rel->target->func->is_entry() || rel->removed)
      continue;
    OutputSymbol *kernel = rel->target->func;
    OutputSymbol *&instance = instance_of[kernel];
    for (OutputReloc &r : rel->relocs) {
      if (!is_dynamic_array(r.sym))
        continue;
      if (!instance) {
        u64 packed = add_dynamic_window(kernel_shared_section(ctx, kernel), window);
        instance = ctx.arena.make<OutputSymbol>();
        instance->name = "externsharedinstance";
        instance->bind = STB_WEAK;
        instance->type = STT_CUDA_VARIABLE;
        instance->other = static_cast<u8>(STO_CUDA_SHARED | 1); // STV_INTERNAL
        instance->value = align_to(packed, kDynamicWindowAlign);
        instance->create_seq = ctx.out.next_seq++;
        instance->relocatable_dynamic_instance = true;
        instance->in_local_array = true;
        instances.push_back(instance);
      }
      r.sym = instance;
    }
  }
  std::erase_if(instance_of, [](const auto &entry) { return entry.second == nullptr; });
  std::set<const OutputSymbol *> users;
  for (const auto &[kernel, instance] : instance_of)
    users.insert(kernel);
  windows_beside_aligned_variables(ctx, debug, users);
  // (WEAK, they end nvlink's local array, in that order.)
  ctx.out.locals.insert(ctx.out.locals.end(), instances.begin(), instances.end());
  if (!instances.empty())
    add_strtab_name(ctx, instances.front()->name); // (one string for all)
}

} // namespace dlink
