// Capsule patching (capsule_patch.h): consumes the capsule values the
// relocation stage recorded and the capsules built by build_mercury;
// produces the capsules' bytes with those values in place.
#include "mercury/capsule_patch.h"
#include "mercury/state.h"

#include "dlink/reloc_types.h"

#include <algorithm>

namespace dlink {

size_t capsule_record_size(std::span<const u8> c, size_t pos) {
  size_t n = c[pos] & 0xf;
  if (c[pos] & 0x40) {
    if (n == 1 && (c[pos] & 0x10)) {
      // 0x51, 0xd1: a 2-byte token (a fence's or a debug exit's), then the
      // record it belongs to.
      if (pos + 2 >= c.size() || (c[pos + 2] & 0x50) == 0x50)
        return 0; // no record after it
      return 2 + capsule_record_size(c, pos + 2);
    }
    if (n == 1 || n == 2)
      return 4;
    return 2 * std::max<size_t>(n, 1);
  }
  return n == 1 ? 16 : n == 2 ? 32 : 14;
}

bool parse_capsule(std::span<const u8> c, std::vector<CapsuleItem> &items) {
  if (c.size() < 12)
    return false;
  u32 count = read_le<u32>(c.data() + 8);
  size_t pos = 12 + 4 * ((static_cast<size_t>(count) + 31) / 32);
  if (pos > c.size())
    return false;
  for (u32 i = 0; i < count; i++) {
    if ((read_le<u32>(c.data() + 12 + 4 * (i / 32)) >> (i % 32)) & 1) {
      items.push_back({});
      continue;
    }
    if (pos >= c.size())
      return false; // items so far are kept
    size_t len = capsule_record_size(c, pos);
    if (len == 0 || len > c.size() - pos)
      return false; // a record past the end: items so far are kept
    size_t insns = 1;
    if ((c[pos] & 0x5f) == 0x51 && (insns = read_le<u16>(c.data() + pos) >> 7) == 0)
      return false;
    items.push_back({pos, len, insns});
    pos += len;
  }
  // Some capsules end with one 2-byte token outside the count.
  return pos == c.size() || pos + 2 == c.size();
}


std::vector<size_t> capsule_item_of_instruction(const std::vector<CapsuleItem> &items) {
  std::vector<size_t> of;
  for (size_t k = 0; k < items.size(); k++)
    of.insert(of.end(), items[k].insns, k);
  return of;
}

void patch_capsules(Context &ctx) {
  for (OutputSection *capsule : ctx.out.sections) {
    auto &capsule_values = mercury_state(ctx).capsule_values;
    auto found = capsule_values.find(capsule);
    if (found == capsule_values.end() || !capsule->func)
      continue;
    // Only values nvlink was seen to place: constant banks and header-index
    // slots, and (-r) an undefined __constant__ variable's all ones plus the
    // addend. (Shared-memory offsets land on instructions without bytes.)
    std::vector<MercuryState::CapsuleValue> values;
    for (const MercuryState::CapsuleValue &v : found->second)
      if (v.header_index || (v.sym && v.sym->section &&
                             v.sym->section->kind == SectionKind::Constant) ||
          (v.sym && !v.sym->defined() && v.sym->type == STT_CUDA_VARIABLE &&
           (v.sym->other & 0xe0) == STO_CUDA_CONSTANT))
        values.push_back(v);
    if (values.empty())
      continue;
    std::stable_sort(values.begin(), values.end(),
                     [](const auto &a, const auto &b) { return a.offset < b.offset; });
    std::string_view fname = capsule->func->name;
    auto fail = [&](std::string_view why) {
      ctx.diag.fatal(fmt::format("constant or header-index value in '{}': dlink cannot place "
                                  "it in this capsule-Mercury code ({})",
                                  fname, why));
    };
    // The twin SASS relocations, from the input that defines the function.
    const InputObject *obj = capsule->func->defined_in;
    std::string sass_name = std::string(capsule->name.substr(11)); // ".text.<f>"
    std::vector<ElfReloc> sass;
    std::vector<std::string_view> sass_sym;
    std::vector<const OutputSymbol *> sass_out; // what each maps to
    if (obj)
      for (const char *prefix : {".rela", ".rel"})
        if (auto idx = obj->elf.find_section(prefix + sass_name))
          for (const ElfReloc &r : read_relocs(obj->elf.sections[*idx])) {
            sass.push_back(r);
            sass_sym.push_back(r.sym < obj->symbols.size() ? obj->symbols[r.sym].name
                                                           : std::string_view());
            sass_out.push_back(r.sym < obj->sym_map.size() ? obj->sym_map[r.sym] : nullptr);
          }
    std::vector<size_t> order(sass.size());
    for (size_t i = 0; i < order.size(); i++)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return sass[a].offset < sass[b].offset; });
    std::vector<CapsuleItem> items;
    // A capsule whose tokens are not all understood (parse not ending at
    // its end) is still used up to the items it reached; each target
    // record is checked below.
    bool parsed = parse_capsule(capsule->data, items);
    // The relocations' offsets are the input's: its instructions map to
    // items through the input's capsule. A rewrite keeps the items (the
    // debug exit sequence gives an EXIT's item the three instructions
    // before it, -g: HeCBench's egs, popcount, lci, d3q19-bgk at sm_100 and
    // sm_120), so the current capsule's item of that number is the one.
    std::vector<CapsuleItem> input_items;
    const ElfSection *input_capsule = obj ? obj->elf.section_named(capsule->name) : nullptr;
    bool by_input =
        input_capsule && parse_capsule(input_capsule->data, input_items) && input_items.size() == items.size();
    std::vector<size_t> item_of = capsule_item_of_instruction(by_input ? input_items : items);
    std::vector<u8> &c = capsule->data;
    size_t next = 0;
    for (const MercuryState::CapsuleValue &v : values) {
      // Pair in order with the SASS relocation of the same symbol (by name,
      // or the one it maps to where -r renames it) and addend.
      auto same = [&](size_t k) {
        return (sass_sym[k] == v.sym->name || sass_out[k] == v.sym) && sass[k].addend == v.addend;
      };
      while (next < order.size() && !same(order[next]))
        next++;
      if (next == order.size())
        fail(fmt::format("no SASS relocation for '{}'", v.sym->name));
      u64 insn = sass[order[next++]].offset / 16;
      if (insn >= item_of.size())
        fail(parsed ? "instruction outside the capsule" : "unknown encoding");
      const CapsuleItem &it = items[item_of[insn]];
      const CapsuleItem &as_input = by_input ? input_items[item_of[insn]] : it;
      if (as_input.insns != 1)
        fail(fmt::format("instruction {} inside a record of {} instructions", insn, as_input.insns));
      if (it.pos == 0)
        continue; // no bytes for this instruction
      bool abs16 = v.type == kMercuryRelocBase + 0x04;
      bool abs32 = v.type == kMercuryRelocBase + 0x03;
      if (it.size != 32 || c[it.pos + 1] != 0x22 || c[it.pos + 3] != 0x06 ||
          read_le<u32>(c.data() + it.pos + 0x1c) != 0 || !(abs16 || abs32))
        fail(fmt::format("unknown record at 0x{:x}", it.pos));
      write_le<u32>(c.data() + it.pos + 0x1c,
                    static_cast<u32>(abs16 ? (v.value & 0xffff) : v.value));
    }
  }
}

} // namespace dlink
