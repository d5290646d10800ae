// sm_100+ relocatable links (relocatable_link.h; measured on nvlink 13.0.88).
#include "relocatable_link.h"

#include <unordered_map>

namespace dlink {

void refuse_unsupported_relocatable_mercury(Context &ctx) {
  if (!ctx.arch.is_mercury())
    return;
  auto refuse = [&](std::string_view what) {
    ctx.diag.fatal(fmt::format("-r (relocatable link) for {} {} is not supported by dlink yet",
                               ctx.arch.name(), what));
  };
  // (Measured: the kernels' code changes size, 0x400 -> 0x480, with -g even
  // on inputs without debug information; relocatable_debug_plain.)
  if (ctx.opts.debug)
    refuse("with -g");
  // (Measured on weak_kernel_bank_order: nvlink keeps the first definer's
  // FDE where an executable link merges the holders' frame rows; dlink's
  // model of those rows does not give nvlink's -r bytes.)
  for (const auto &[fn, holders] : ctx.out.weak_holders)
    if (holders.size() >= 2)
      refuse(fmt::format("with the weak function '{}' kept from a later input than its first definition",
                         fn));
  for (const InputObject *in : ctx.inputs)
    for (const ElfSection &sec : in->elf.sections)
      if (sec.name.starts_with(".nv.constant2."))
        refuse(fmt::format("of '{}': the optimizer constant bank '{}'", in->name, sec.name));
      else if (sec.name == ".debug_info" || sec.name == ".nv_debug_info_reg_sass")
        refuse(fmt::format("of '{}': device debug information ({})", in->name, sec.name));
  // (The Mercury symbol table and relocations of the kernels'
  // `externsharedinstance` references are not written yet.)
  for (const auto &[name, sym] : ctx.out.extern_shared_by_name)
    if (sym->extern_shared && !sym->namespace_shared && !sym->dynamic_then_defined && !sym->size)
      refuse(fmt::format("with the dynamic shared array '{}'", name));
}

void finish_relocatable_mercury(Context &ctx) {
  if (!ctx.arch.is_mercury())
    return;
  // (Its value stays the first reference's: .nv.reservedSmem.offset0 keeps 0x40.)
  std::unordered_map<OutputSymbol *, u64> first_value;
  for (const InputObject *in : ctx.inputs)
    for (size_t i = 0; i < in->sym_map.size() && i < in->symbols.size(); i++)
      if (in->sym_map[i] && in->symbols[i].shndx == SHN_UNDEF)
        first_value.try_emplace(in->sym_map[i], in->symbols[i].value);
  for (OutputSymbol *sym : ctx.out.globals)
    if (!sym->defined() && !sym->removed && sym->type == STT_OBJECT) {
      sym->type = STT_CUDA_VARIABLE;
      if (auto it = first_value.find(sym); it != first_value.end())
        sym->value = it->second;
    }
}

} // namespace dlink
