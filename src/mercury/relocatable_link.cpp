// sm_100+ relocatable links (relocatable_link.h; measured on nvlink 13.0.88).
#include "relocatable_link.h"

#include "arch_format.h"
#include "debug_link.h"
#include "dlink/log.h"
#include "dlink/reloc_types.h"
#include "output_model.h"

#include <algorithm>
#include <array>
#include <span>
#include <optional>
#include <unordered_map>

namespace dlink {

void finish_relocatable_mercury(Context &ctx) {
  if (!ctx.arch.is_mercury())
    return;
  // (Other names keep their first reference's value.)
  std::unordered_map<OutputSymbol *, u64> first_value;
  for (const InputObject *in : ctx.inputs)
    for (size_t i = 0; i < in->sym_map.size() && i < in->symbols.size(); i++)
      if (in->sym_map[i] && in->symbols[i].shndx == SHN_UNDEF)
        first_value.try_emplace(in->sym_map[i], in->symbols[i].value);
  // (A relocatable input's references are CUDA variables without a memory
  // space already; nvlink gives them the same values whatever the input
  // holds: measured with a -r input whose __UDT, .nv.reservedSmem.offset0
  // and .cap held 7, 0x44 and 0x404, linked alone and either side of a
  // ptxas cubin: 0, 0x40, 0x400.)
  for (OutputSymbol *sym : ctx.out.globals)
    if (!sym->defined() && !sym->removed &&
        (sym->type == STT_OBJECT || (sym->type == STT_CUDA_VARIABLE && !(sym->other & 0xe0)))) {
      sym->type = STT_CUDA_VARIABLE;
      if (sym->name == ".nv.reservedSmem.offset0")
        sym->value = 0x40;
      else if (sym->name == ".nv.reservedSmem.cap")
        sym->value = 0x400;
      else if (sym->name.starts_with("__UFT") || sym->name.starts_with("__UDT"))
        sym->value = 0;
      else if (auto it = first_value.find(sym); it != first_value.end())
        sym->value = it->second;
    }
}

namespace {

// The start of a kernel's parameters in its bank (0x380 bytes of driver
// data before them): the slot base of a link without kernels.
constexpr u64 kParameterBankStart = 0x380;

} // namespace

// Measured with `nvlink -r` on sm_100, sm_103, sm_110, sm_120 and sm_121
// (docs/notes/relocatable.md): a device function using a texture and a
// surface linked alone (0x380), with a kernel of 0x388 (0x390), 0x398
// (0x3a0) or 0x3a4 bytes (0x3b0, a kernel using no reference) or no
// parameters (0x380); inputs whose instruction held another address and
// bank, and whose relocation had addend 8, gave the same output. The same
// for a surface store's CONST_FIELD21_38 (16 bits at bit 38; address 0x100,
// bank 5 and addend 4 in the input: differential-ptx --extras seed 89).
void place_relocatable_header_indices(Context &ctx) {
  if (!arch_format(ctx.arch).relocatable_keeps_texture_relocs)
    return;
  u64 base = kParameterBankStart;
  auto is_kernel = [&](std::string_view name) {
    if (const OutputSymbol *sym = find_global(ctx, name))
      return sym->is_entry();
    return std::any_of(ctx.out.locals.begin(), ctx.out.locals.end(), [&](const OutputSymbol *sym) {
      return sym->name == name && sym->type == STT_FUNC && sym->is_entry();
    });
  };
  for (const OutputSection *bank : ctx.out.deferred_sections)
    if (!bank->removed && bank->kind == SectionKind::Constant &&
        bank->name.starts_with(".nv.constant0.") && is_kernel(bank->name.substr(14)))
      base = std::max(base, bank->size);
  base = align_to(base, u64{16});
  for (OutputSection *rel : ctx.out.sections) {
    if (rel->kind != SectionKind::Reloc || rel->removed || !rel->target ||
        rel->target->kind != SectionKind::Text)
      continue;
    OutputSection *text = rel->target;
    for (OutputReloc &r : rel->relocs) {
      if (!r.sym || !is_bound_texture_type(r.sym->type))
        continue;
      const RelocDesc *desc = find_reloc(r.type);
      u32 bytes = desc ? reloc_field_bytes(*desc) : 0;
      bool measured = r.type == reloc_type::R_CUDA_CONST_FIELD22_37 ||
                      r.type == reloc_type::R_CUDA_CONST_FIELD21_38; // (a surface store)
      if (!measured || !rel->rela || !text->has_file_data() ||
          r.offset > text->data.size() || bytes > text->data.size() - r.offset) {
        ctx.diag.fatal(fmt::format("-r (relocatable link): a relocation of type 0x{:x} against "
                                   "the texture, sampler or surface reference '{}' in '{}' is "
                                   "not supported by dlink yet",
                                   r.type, r.sym->name, text->name));
        return;
      }
      RelocInputs in;
      in.address = base;
      in.bank = 0;
      apply_reloc_fields(*desc, std::span<u8>(text->data.data() + r.offset, bytes), in);
      r.addend = 0;
    }
  }
}

void refinalize_unified_stubs(Context &ctx) {
  if (!ctx.arch.is_mercury())
    return;
  constexpr size_t kInstr = 16, kStubInstrs = 8;
  constexpr u16 kNop = 0x118, kBra = 0x147;
  // Bytes 13-15 of an instruction: its scheduling controls (bits 105-127;
  // bit 104, the encoding's, is 0 in every stub measured).
  constexpr std::array<u8, 3> kDebug = {0xde, 0x3f, 0x00}, kOptimized = {0xea, 0x0f, 0x00},
                              kOptimizedNop = {0xe2, 0x0f, 0x00}, kClosing = {0xc0, 0x0f, 0x00};
  bool debug = writes_debug_info(ctx);
  for (OutputSection *sec : ctx.out.sections) {
    if (sec->removed || sec->type != SHT_CUDA_UFT)
      continue;
    std::vector<u8> &code = sec->data;
    auto opcode = [&](size_t i) { return static_cast<u16>(read_le<u16>(code.data() + i * kInstr) & 0x1ff); };
    auto controls = [&](size_t i) { return std::span<u8>(code.data() + i * kInstr + 13, 3); };
    bool measured = code.size() == kStubInstrs * kInstr && sec->size == code.size();
    for (size_t i = 0; measured && i < kStubInstrs; i++) {
      std::span<u8> c = controls(i);
      bool closing = i >= 6;
      measured = (c[0] & 1) == 0 && (i < 2 ? opcode(i) != kNop : opcode(i) == (i == 6 ? kBra : kNop)) &&
                 (!closing || std::equal(c.begin(), c.end(), kClosing.begin()));
    }
    if (!measured) {
      log::debug("unified stub {}: not in the measured shape, ptxas's code kept", sec->name);
      continue;
    }
    for (size_t i = 0; i < 6; i++) {
      const std::array<u8, 3> &to = debug ? kDebug : i < 2 ? kOptimized : kOptimizedNop;
      std::copy(to.begin(), to.end(), controls(i).begin());
    }
  }
}

} // namespace dlink
