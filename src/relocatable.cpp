// -r (--relocatable-link): the stages only a relocatable link runs
// (relocatable.h; measured on nvlink 13.0.88, docs/notes/relocatable.md).
#include "arch_format.h"
#include "relocatable.h"

#include "dead_code.h"
#include "output_model.h"

#include "mercury/relocatable_link.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

namespace dlink {

void check_relocatable_command_line(Context &ctx) {
  if (!relocatable_output(ctx))
    return;
}

void refuse_unsupported_relocatable_inputs(Context &ctx) {
  if (!relocatable_output(ctx))
    return;
  // (After the merge, so that its errors come first, as with nvlink.)
  refuse_unsupported_relocatable_mercury(ctx); // sm_100+ (mercury/relocatable_link.h)
  auto refuse = [&](const InputObject &in, std::string_view what) {
    ctx.diag.fatal(fmt::format("-r (relocatable link) of '{}': {} is not supported by dlink yet",
                               in.name, what));
  };
  // Weak functions with their own constant bank (.nv.constant2.<f>) in
  // several inputs: nvlink keeps each copy's bank symbols at their own
  // offsets; not reproduced yet.
  std::map<std::string_view, int> weak_banks;
  for (const InputObject *in : ctx.inputs)
    for (const ElfSymbol &s : in->symbols)
      if (s.type() == STT_FUNC && s.bind() == STB_WEAK && s.shndx != SHN_UNDEF &&
          in->elf.section_named(".nv.constant2." + std::string(s.name)) &&
          ++weak_banks[s.name] == 2)
        refuse(*in, fmt::format("the weak function '{}' with its own constant bank in several inputs",
                                s.name));
  for (const InputObject *in : ctx.inputs) {
    for (const ElfSymbol &s : in->symbols) {
      if (s.is_shared_variable() && s.shndx == SHN_UNDEF && !s.size)
        refuse(*in, fmt::format("the undefined shared variable '{}'", s.name));
    }
  }
}

namespace {

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

} // namespace

void check_prelinked_inputs(Context &ctx) {
  for (InputObject *in : ctx.inputs) {
    if (!written_by_relocatable_link(*in))
      continue;
    ctx.out.prelinked_input = true;
    in->prelinked = true;
    auto refuse = [&](std::string_view what) {
      ctx.diag.fatal(fmt::format("Input file '{}' is the output of a relocatable link (-r) with {}; "
                                 "linking it is not supported by dlink yet",
                                 in->name, what));
    };
    // (Measured with tools/two-stage-links: dlink's final image differs.)
    std::set<std::string_view> names;
    for (const ElfSection &sec : in->elf.sections)
      if (!sec.name.empty() && !names.insert(sec.name).second)
        refuse(fmt::format("two sections named '{}' (local functions of several inputs)", sec.name));
    // A relocatable link of a relocatable output with a dynamic shared
    // array defines the kernels' `externsharedinstance` in
    // .nv_debug.shared; linked again, nvlink gives that section another
    // alignment (0x10 where dlink gives 0x20; relocatable_two_stage_dynamic
    // split by tools/two-stage-links, sm_75, sm_90, sm_100, sm_120).
    for (const ElfSymbol &s : in->symbols)
      if (s.name == "externsharedinstance" && s.shndx != SHN_UNDEF)
        refuse("a defined 'externsharedinstance' (a relocatable link of a relocatable output "
               "with a dynamic shared array)");
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

// --preserve-relocs: the shapes dlink refuses (measured against nvlink with
// `tools/mode-sweep -- --preserve-relocs`: their images differ or are not
// modelled; docs/notes/relocatable.md), or nullptr.
const char *preserve_relocs_refusal(const Context &ctx) {
  if (ctx.opts.debug)
    return "with -g";
  // (sm_100+: nvlink keeps the optimizer banks' .nv.constant.optimizer.*
  // working names and lists their relocations: empty_rela_constant2,
  // recursion.)
  if (!arch_format(ctx.arch).optimizer_bank_prefix.empty())
    for (const InputObject *obj : ctx.inputs)
      for (const ElfSection &sec : obj->elf.sections)
        if (sec.name.starts_with(".nv.constant2."))
          return "with optimizer constant banks (.nv.constant2.<f>) for sm_100 and newer";
  if (ctx.opts.lto)
    return "with -dlto";
  if (kernel_filter(ctx).mode != KernelFilter::Mode::All)
    return "with -kernels-used, -variables-used or host-reference pruning";
  for (const auto &[name, holders] : ctx.out.weak_holders)
    if (holders.size() > 1)
      return "with a weak function replaced by a later copy";
  for (const OutputSymbol *sym : ctx.out.globals)
    if (is_bound_texture_type(sym->type))
      return "with bound texture, sampler or surface references";
  // (nvlink keeps .nv_debug.shared's section symbol: dynamic_shared, mixed.)
  for (const auto &[name, sym] : ctx.out.extern_shared_by_name)
    if (sym->extern_shared)
      return "with a dynamic extern __shared__ array";
  for (const InputObject *obj : ctx.inputs)
    for (const ElfSymbol &s : obj->symbols) {
      // (nvlink keeps a lost copy's local symbols: cub_reduce, thrust_device.)
      if (s.bind() == STB_WEAK && (s.other & STO_CUDA_ENTRY) && s.shndx != SHN_UNDEF)
        return "with weak (template) kernels";
      // (A file-local __constant__ variable: static_helper_const_ptx.)
      if (s.bind() == STB_LOCAL && s.type() != STT_SECTION && s.shndx != SHN_UNDEF &&
          s.shndx < obj->elf.sections.size() && obj->elf.sections[s.shndx].name == ".nv.constant3")
        return "with file-local __constant__ variables";
    }
  return nullptr;
}

} // namespace

void refuse_unsupported_preserve_relocs(Context &ctx) {
  if (const char *why = preserve_relocs_refusal(ctx))
    ctx.diag.fatal(fmt::format("-preserve-relocs {} is not supported by dlink yet", why));
}

} // namespace dlink
