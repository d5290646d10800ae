// Stage 4: relocation (relocate.h).
//
// Consumes the relocation lists of the output model after layout; patches
// section bytes through the generic descriptor engine (reloc_types.h) and
// leaves in each list only the relocations the driver must still apply.
//
// The keep-or-resolve decision follows what nvlink does
// (docs/notes/relocations.md): UNIFIED types are first rewritten to their
// plain twins; YIELD records are always dropped unapplied; UNUSED_CLEAR
// records are dropped and zero their field only when the symbol is gone;
// relocations against __UFT_OFFSET are dropped; everything whose symbol
// lives in code or global memory is kept (all sh_addr are 0 in a cubin);
// linker-handled types against constant banks and shared memory, and
// references into non-allocated sections (.debug_frame), are applied.
#include "arch_format.h"
#include "reloc/relocate.h"

#include "dlink/reloc_types.h"
#include "arch_format.h"
#include "debug_link.h"
#include "elf/dwarf_frame.h"
#include "layout.h"
#include "mercury/state.h"
#include "relocatable.h"

#include <algorithm>
#include <optional>
#include <string>

namespace dlink {

namespace {

enum class Action { Keep, Apply, Drop, Clear };

bool is_allocated(const OutputSection *sec) { return sec && (sec->flags & SHF_ALLOC); }

Action decide(const OutputReloc &r, const RelocDesc &desc) {
  using namespace reloc_type;
  if (r.type == R_CUDA_YIELD_OPCODE9_0 || r.type == R_CUDA_YIELD_CLEAR_PRED4_87)
    return Action::Drop;
  if (desc.actions[0].value == RelocValue::Clear) {
    bool alive = r.sym && !r.sym->removed && (r.sym->defined() || r.sym->is_section_symbol);
    return alive ? Action::Drop : Action::Clear;
  }
  if (r.sym && r.sym->name == "__UFT_OFFSET")
    return Action::Drop;
  if (r.sym && r.sym->internal_undefined_object)
    return desc.handler == RelocHandler::Linker || desc.handler == RelocHandler::Either
               ? Action::Apply
               : Action::Keep;
  // (-r -g: a -r input's `externsharedinstance`, laid out as an array,
  // keeps its references; glink_two_stage_dynamic with -r.)
  if (r.sym && r.sym->prelinked_window)
    return Action::Keep;
  if (r.sym && (r.sym->extern_shared || r.sym->namespace_shared))
    return Action::Apply;
  const OutputSection *sec = r.sym ? r.sym->section : nullptr;
  if (!sec)
    return Action::Keep;
  if (!is_allocated(sec))
    return desc.handler == RelocHandler::Either || desc.handler == RelocHandler::Linker
               ? Action::Apply
               : Action::Keep;
  // (-r: a WEAK variable of .nv_debug.shared, a template kernel's
  // function-scope __shared__ array, may be another input's copy in the
  // final link: its references stay; weak_shared_template.)
  if (sec->kind == SectionKind::DebugShared && r.sym->bind == STB_WEAK)
    return Action::Keep;
  bool link_time_window = sec->kind == SectionKind::Shared || sec->kind == SectionKind::Constant ||
                          sec->kind == SectionKind::DebugShared; // (-r only: nothing laid out)
  if (link_time_window &&
      (desc.handler == RelocHandler::Linker || desc.handler == RelocHandler::Either))
    return Action::Apply;
  return Action::Keep;
}

u32 constant_bank(const OutputSection *sec) {
  if (!sec || sec->kind != SectionKind::Constant)
    return 0;
  // ".nv.constant3", ".nv.constant0.<k>": the bank follows the prefix.
  // sm_100+ names bank 3 ".nv.constant.user" until the link is done.
  if (sec->name == ".nv.constant.user")
    return 3;
  if (sec->name.starts_with(".nv.constant.optimizer."))
    return 2;
  return static_cast<u32>(std::strtoul(std::string(sec->name.substr(12)).c_str(), nullptr, 10));
}

// S of a relocation resolved at link time.
u64 relocation_symbol_value(const Context &ctx, const OutputSymbol &sym) {
  // `.nv.ptx.const0.size` outside a kernel (any LOCAL OBJECT INTERNAL
  // undefined symbol): nvlink writes all ones (measured: 0xffffffff in the
  // ABS32_32 immediate on sm_75-sm_121; a relocatable link shows the
  // symbol's value as 0xffffffffffffffff).
  if (sym.internal_undefined_object)
    return ~u64{0};
  return symbol_offset(ctx, sym);
}

// What applying one relocation section leaves for the link to commit, in
// order: capsule-Mercury values and the fatal error that stopped it.
struct SectionResult {
  std::vector<MercuryState::CapsuleValue> capsule;
  std::vector<OutputReloc> resolved; // --preserve-relocs: the ones applied
  std::optional<std::string> fatal;
  void fail(std::string message) { fatal = std::move(message); }
};

// --preserve-relocs: whether a resolved relocation is listed in its
// target's .nv.resolvedrela section. Not those against `.nv.ptx.const0.size`
// or a dynamic `extern __shared__` array, which nvlink resolves without
// listing them (measured with libcudadevrt and dynamic_shared). sm_100+
// (preserve_relocs_* golden cases, -G inputs of `tools/mode-sweep --
// --preserve-relocs`): neither those of the debug sections (.debug_frame CIE
// pointers, .debug_info, .debug_line, ...) nor references to __constant__
// data (whose values go into the capsule), in the SASS and the
// capsule-Mercury sections alike.
bool listed_when_preserved(const Context &ctx, const OutputSection &target, const OutputReloc &r) {
  if (!ctx.opts.preserve_relocs || (r.sym && r.sym->internal_undefined_object))
    return false;
  // (A dynamic array: only from a function no kernel reaches, once the
  // array has a symbol; debug_link.h place_preserved_dynamic_arrays.)
  // (-r: the arrays are defined in .nv_debug.shared and the kernels' own
  // references go to their instances: the others are listed, a device
  // function's and DWARF's; relocatable_dynamic_shared, gdebug_dynamic_location.)
  // (-g, whose arrays are symbols of .nv_debug.shared: every reference, by
  // the rules of the others; glink_dynamic_arrays, glink_shared,
  // glink_dynamic_program_wide, glink_dynamic_then_defined,
  // preserve_relocs_dynamic_deleted with --preserve-relocs -g.)
  // (A -r input's `externsharedinstance`: only with -g, where it has a
  // symbol (sm_90) beside a namespace-scope variable in .nv_debug.shared;
  // glink_two_stage_dynamic, relocatable_two_stage_shared with
  // --preserve-relocs [-g] at sm_75, sm_90, sm_100, sm_120.)
  if (r.sym && r.sym->extern_shared && !relocatable_output(ctx) && r.sym->name == "externsharedinstance" &&
      !(writes_debug_info(ctx) && r.sym->in_local_array && debug_shared_variables_end(ctx) > 0))
    return false;
  if (r.sym && r.sym->extern_shared && !writes_debug_info(ctx) && !relocatable_output(ctx) &&
      !(r.sym->debug_shared_symbol && lists_dynamic_array_reference(ctx, target)))
    return false;
  // (A device function's own bank, copied into its kernels' banks (sm_75-89
  // .nv.constant2.<f>): its variables' references are resolved without
  // being listed; math, math_2tu, ocg_banks_order.)
  if (r.sym && r.sym->section && r.sym->section->detached)
    return false;
  if (!arch_format(ctx.arch).preserved_debug_relocs &&
      !(target.flags & SHF_ALLOC) && target.type != SHT_CUDA_CAPMERC_TEXT) // (capsules are not allocated)
    return false;
  if (ctx.arch.is_mercury()) {
    if (r.sym && r.sym->section && r.sym->section->kind == SectionKind::Constant)
      return false;
    // (-r: an undefined one neither: relocatable_undefined.)
    if (r.sym && !r.sym->defined() && r.sym->type == STT_CUDA_VARIABLE &&
        (r.sym->other & 0xe0) == STO_CUDA_CONSTANT)
      return false;
  }
  return true;
}

// The listed copy: the input addend plus the input part's offset.
OutputReloc resolved_copy(const OutputReloc &r) {
  OutputReloc copy = r;
  copy.addend += static_cast<i64>(r.bias);
  copy.bias = 0;
  return copy;
}

// Applies `sec` to its target. Writes only the target's bytes and the
// section's own relocation list, so that sections of different targets can
// be applied at once.
void apply_section(const Context &ctx, OutputSection *sec, SectionResult &out) {
  {
    const MercuryState &ms = mercury_state_or_empty(ctx); // (sm_100+ copies)
    const ArchFormat &format = arch_format(ctx.arch);
    OutputSection *target = sec->target;
    std::vector<OutputReloc> kept;
    std::optional<std::vector<u64>> cies; // of target, when it is a .debug_frame
    for (OutputReloc r : sec->relocs) {
      const u32 input_type = r.type;
      if (auto plain = unified_reloc_replacement(r.type))
        r.type = *plain;
      const RelocDesc *desc = find_reloc(r.type);
      Action action = desc ? decide(r, *desc) : Action::Keep;
      // -r: references to bound texture, sampler and surface references
      // are resolved with S = 0 (the undefined symbol's value) and dropped,
      // as nvlink does (docs/notes/relocatable.md); sm_100+ keeps them.
      if (action == Action::Keep && relocatable_output(ctx) && desc && r.sym &&
          is_bound_texture_type(r.sym->type) && !format.relocatable_keeps_texture_relocs)
        action = Action::Apply;
      // -r, sm_100+: .debug_info's references to .debug_line stay for the
      // final link (the bytes as the input has them; .debug_abbrev's are
      // applied).
      if (action == Action::Apply && relocatable_output(ctx) &&
          format.relocatable_keeps_debug_info_line_relocs && target->name == ".debug_info" && r.sym && r.sym->is_section_symbol && r.sym->section &&
          r.sym->section->name == ".debug_line")
        action = Action::Keep;
      // (-r: a kept UNIFIED relocation keeps its type for the final link.)
      if (action == Action::Keep && relocatable_output(ctx))
        r.type = input_type;
      // -r: a constant-bank reference to an undefined __constant__ variable,
      // and a reference to an undefined sized `extern __shared__` array,
      // are resolved too, with S = the symbol's value (all ones).
      if (action == Action::Keep && relocatable_output(ctx) && desc && r.sym && !r.sym->defined() &&
          r.sym->type == STT_CUDA_VARIABLE && !r.sym->relocatable_dynamic_instance &&
          ((r.sym->other & 0xe0) == STO_CUDA_CONSTANT || (r.sym->other & 0xe0) == STO_CUDA_SHARED) &&
          (desc->handler == RelocHandler::Linker || desc->handler == RelocHandler::Either))
        action = Action::Apply;
      if (action == Action::Keep || !target->has_file_data()) {
        if (action != Action::Drop)
          kept.push_back(r);
        continue;
      }
      if (action == Action::Drop)
        continue;
      u32 bytes = reloc_field_bytes(*desc);
      if (r.overruns_input)
        return out.fail(fmt::format("relocation at 0x{:x} in section '{}' runs past the end of its "
                                   "input section, which dlink does not link yet",
                                   r.offset, target->name));
      bool in_range = r.offset <= target->data.size() && bytes <= target->data.size() - r.offset;
      // Capsule-Mercury code relocations address the capsule's decoded
      // instruction stream, not its bytes: nvlink resolves them without
      // touching the section.
      if (target->type == SHT_CUDA_CAPMERC_TEXT) {
        if (action != Action::Clear) {
          u64 s = r.sym ? relocation_symbol_value(ctx, *r.sym) : 0;
          out.capsule.push_back(
              {r.offset, r.sym, r.addend, r.type, s + r.bias + static_cast<u64>(r.addend)});
          if (listed_when_preserved(ctx, *target, r))
            out.resolved.push_back(resolved_copy(r));
        }
        continue;
      }
      // A Mercury data twin whose bytes are its SASS section's (sm_100+
      // `.global .u64 p = &c` for a __constant__ c): the SASS relocation at
      // the same place writes them; nvlink keeps neither (measured sm_100,
      // sm_120; golden case global_init_constant_address).
      // (Only .nv.global.init is measured: a resolved pointer inside the
      // constant bank changes its relocation section's name as well.)
      const OutputSection *twin = ms.shares_twin_bytes(target) ? ms.twin(target) : nullptr;
      if (twin && twin->name == ".nv.global.init" && target->data.empty() &&
          action == Action::Apply && r.offset + bytes <= twin->size)
        continue;
      if (!in_range)
        return out.fail(fmt::format("relocation offset 0x{:x} out of range in section '{}'",
                                   r.offset, target->name));
      std::span<u8> word(target->data.data() + r.offset, bytes);
      if (action == Action::Clear) {
        for (const RelocAction &a : desc->actions)
          if (a.width)
            insert_bits(word, a.bitpos, a.width, 0);
        continue;
      }
      // (--preserve-relocs: not those against `.nv.ptx.const0.size` or a
      // dynamic `extern __shared__` array, which nvlink resolves without
      // listing them; measured with libcudadevrt and dynamic_shared.)
      if (ctx.opts.preserve_relocs && r.sym && r.sym->namespace_shared && !r.sym->debug_shared_symbol)
        return out.fail(fmt::format("--preserve-relocs: a relocation against the shared variable "
                                   "'{}' outside a kernel is not supported by dlink yet",
                                   r.sym->name));
      // (sm_100+: of the capsule-Mercury copies only the capsules' are
      // listed, above; measured: preserve_relocs_lineinfo's
      // .nv.merc.debug_line has none.)
      if (listed_when_preserved(ctx, *target, r) && !ms.is_copy(target))
        out.resolved.push_back(resolved_copy(r));
      RelocInputs in;
      u64 s = r.sym ? relocation_symbol_value(ctx, *r.sym) : 0;
      // A dynamic array: its start in the function's kernels. From DWARF
      // (no function): -g's symbol offset, else all ones, as there is no
      // one address (plus ptxas's addend, the reserved window: 0x3ff on
      // sm_90+; measured sm_75/90/100/120: dyn_shared_debug_info_nog,
      // gdebug_dynamic_location).
      // (-r: it is defined at 0 in .nv_debug.shared; relocatable.h.)
      if (r.sym && r.sym->extern_shared && !relocatable_output(ctx)) {
        if (!target->func) {
          s = r.sym->debug_shared_symbol ? r.sym->value : ~u64{0};
        } else {
          // (--preserve-relocs without debug information: all ones in a
          // function no kernel reaches; debug_link.h.)
          auto it = ctx.out.dynamic_shared_offset.find(target->func);
          s = it != ctx.out.dynamic_shared_offset.end() ? it->second
              : preserved_shared_internal(ctx)         ? ~u64{0}
                                                       : 0;
        }
        if (r.sym->dynamic_then_defined) // (merge: nvlink's all-ones address; -g: the
          s = writes_debug_info(ctx) ? 0 : ~u64{0}; // symbol's, 0 in .nv_debug.shared)
      }
      in.address = s + r.bias + static_cast<u64>(r.addend);
      in.bank = r.sym ? constant_bank(r.sym->section) : 0;
      // -r, an undefined symbol (texture reference, undefined __constant__):
      // nvlink writes a fixed bank (28 on sm_75-90a, measured in the 5-bit
      // fields of CONST_FIELD19_40 and CONST_FIELD21_38; 3 on sm_100+ in
      // CONST_FIELD22_37, whatever the input field held); other
      // constant-field types are refused rather than guessed.
      if (relocatable_output(ctx) && r.sym && !r.sym->section &&
          std::any_of(desc->actions.begin(), desc->actions.end(), [](const RelocAction &a) {
            return a.width && (a.value == RelocValue::Bank || a.value == RelocValue::BankHi);
          })) {
        if (std::find(format.relocatable_undefined_bank_types.begin(),
                      format.relocatable_undefined_bank_types.end(),
                      r.type) == format.relocatable_undefined_bank_types.end())
          return out.fail(fmt::format("-r (relocatable link): a relocation of type 0x{:x} against "
                                     "the undefined '{}' is not supported by dlink yet",
                                     r.type, r.sym->name));
        in.bank = format.relocatable_undefined_bank;
      }
      in.implicit_addend = !sec->rela;
      // An FDE's CIE pointer on sm_100+: nvlink points it at the CIE that
      // precedes the FDE in the merged SASS .debug_frame (ptxas writes
      // addends that fit the Mercury copy's layout). sm_75-90 use S + A.
      if (ctx.arch.is_mercury() && !ms.is_copy(sec) && r.sym && r.sym->is_section_symbol &&
          r.sym->section == target &&
          target->name.ends_with("debug_frame") && sec->rela) {
        if (!cies)
          cies = cie_offsets(target->data); // (relocations do not touch the CIE ids)
        if (auto cie = preceding_cie(*cies, r.offset)) {
          in.address = *cie;
          in.implicit_addend = false;
        }
      }
      apply_reloc_fields(*desc, word, in);
    }
    for (OutputReloc &r : kept) {
      if (r.bias && sec->rela)
        r.addend += static_cast<i64>(r.bias);
      else if (r.bias)
        return out.fail(fmt::format("unsupported: REL relocation against a merged section in '{}'",
                                   target->name));
    }
    sec->relocs = std::move(kept);
  }
}

void commit(Context &ctx, OutputSection *sec, SectionResult &result) {
  if (!result.capsule.empty()) {
    auto &values = mercury_state(ctx).capsule_values[sec->target];
    values.insert(values.end(), result.capsule.begin(), result.capsule.end());
  }
  if (result.fatal)
    ctx.diag.fatal(*result.fatal);
  if (!result.resolved.empty()) {
    OutputSection *resolved = sec->target->resolved;
    if (!resolved)
      return ctx.diag.fatal(fmt::format("--preserve-relocs: relocations of '{}' resolved where "
                                        "nvlink's list for them was not measured; not "
                                        "supported by dlink yet",
                                        sec->target->name));
    resolved->relocs.insert(resolved->relocs.end(), result.resolved.begin(),
                            result.resolved.end());
  }
}

// --preserve-relocs: each target's resolved relocations in the reverse of
// merge order (nvlink's list is built by prepending as relocations of the
// inputs are resolved, REL and RELA sections of one input in their order).
void order_resolved(Context &ctx) {
  for (OutputSection *sec : ctx.out.sections)
    if (sec->resolved_rela)
      std::stable_sort(sec->relocs.begin(), sec->relocs.end(),
                       [](const OutputReloc &a, const OutputReloc &b) { return a.seq > b.seq; });
}

} // namespace

// Relocation sections of different targets are independent: they are
// applied at once, each target's sections in order on one thread, and the
// results (capsule values, a fatal error) are committed in section order.
// (One thread: section by section, as before.)
void apply_relocations(Context &ctx) {
  std::vector<OutputSection *> secs;
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::Reloc && !sec->removed && sec->target && !sec->resolved_rela)
      secs.push_back(sec);
  if (ctx.par.serial()) {
    for (OutputSection *sec : secs)
      apply_relocation_section(ctx, sec);
    order_resolved(ctx);
    return;
  }
  // Groups: runs of (target, position) sorted; a group's sections stay in
  // section order (which group runs first does not matter).
  std::vector<std::pair<const OutputSection *, size_t>> order(secs.size());
  for (size_t i = 0; i < secs.size(); ++i)
    order[i] = {secs[i]->target, i};
  std::sort(order.begin(), order.end());
  std::vector<size_t> starts;
  for (size_t i = 0; i < order.size(); ++i)
    if (i == 0 || order[i].first != order[i - 1].first)
      starts.push_back(i);
  starts.push_back(order.size());
  std::vector<SectionResult> results(secs.size());
  ctx.par.for_each_index(starts.size() - 1, [&](size_t g) {
    for (size_t k = starts[g]; k < starts[g + 1]; ++k) {
      size_t i = order[k].second;
      apply_section(ctx, secs[i], results[i]);
      if (results[i].fatal)
        break; // (the link stops there)
    }
  }, 16);
  for (size_t i = 0; i < secs.size(); ++i)
    commit(ctx, secs[i], results[i]);
  order_resolved(ctx);
}

void apply_relocation_section(Context &ctx, OutputSection *sec, std::vector<OutputReloc> *resolved) {
  SectionResult result;
  apply_section(ctx, sec, result);
  if (resolved)
    *resolved = std::exchange(result.resolved, {});
  commit(ctx, sec, result);
}

} // namespace dlink
