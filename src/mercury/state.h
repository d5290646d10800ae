// What the capsule-Mercury stage keeps for the link (sm_100+), beside the
// output model: generic stages never read it (link_context.h ArchState).
#pragma once

#include "link_context.h"

#include <map>
#include <vector>

namespace dlink {

// An output symbol as the capsule-Mercury symbol table shows it.
struct MercurySymbol {
  bool present = false; // some input's Mercury table has it
  u8 info = 0;
  u8 other = 0;
  OutputSection *section = nullptr; // its Mercury section
  u64 value = 0;
  u64 size = 0;
  u32 index = 0; // in .nv.merc.symtab (order_mercury_symbols)
};

struct MercuryState final : ArchState {
  // .nv.merc.symtab (created by build_mercury).
  OutputSection *symtab = nullptr;
  // Side tables (the output model has no Mercury fields), indexed by the
  // objects' family_slot: the capsule-Mercury sections of the output, each
  // with the SASS section it mirrors and whether its file bytes are that
  // section's, and the symbols' Mercury view. Slot 0: none.
  struct CopyInfo {
    OutputSection *twin = nullptr;
    bool shares_twin_bytes = false;
  };
  std::vector<CopyInfo> copy_slots{1};
  std::vector<MercurySymbol> symbol_slots{1};
  // The Mercury symbol table's order (order_mercury_symbols) and its
  // number of locals plus one (sh_info).
  std::vector<OutputSymbol *> symbol_order;
  size_t symbol_locals = 1;

  // `sec` is a Mercury copy (of `twin`, when given).
  void add_copy(OutputSection *sec, OutputSection *twin = nullptr) {
    if (!sec->family_slot) {
      sec->family_slot = static_cast<u32>(copy_slots.size());
      copy_slots.emplace_back();
    }
    if (twin)
      copy_slots[sec->family_slot].twin = twin;
  }
  void set_twin(OutputSection *sec, OutputSection *twin) { add_copy(sec, twin); }
  void set_shares_twin_bytes(OutputSection *sec) { copy_slots[sec->family_slot].shares_twin_bytes = true; }
  void remove_copy(OutputSection *sec) { sec->family_slot = 0; }
  bool is_copy(const OutputSection *sec) const { return sec->family_slot != 0; }
  OutputSection *twin(const OutputSection *sec) const { return copy_slots[sec->family_slot].twin; }
  bool shares_twin_bytes(const OutputSection *sec) const { return copy_slots[sec->family_slot].shares_twin_bytes; }
  MercurySymbol &symbol(OutputSymbol *sym) {
    if (!sym->family_slot) {
      sym->family_slot = static_cast<u32>(symbol_slots.size());
      symbol_slots.emplace_back();
    }
    return symbol_slots[sym->family_slot];
  }
  const MercurySymbol &symbol(const OutputSymbol *sym) const { return symbol_slots[sym->family_slot]; }
  // Values the link resolves into capsule-Mercury code
  // (.nv.capmerc.text.<f>): per capsule, each resolved Mercury relocation
  // (decoded offset, symbol, addend, type, S + A). Mercury writes them into
  // the capsule's encoding (mercury.cpp patch_capsules).
  struct CapsuleValue {
    u64 offset = 0;
    const OutputSymbol *sym = nullptr;
    i64 addend = 0;
    u32 type = 0;
    u64 value = 0;
    bool header_index = false; // a texture/sampler/surface slot (value: slot - base)
  };
  std::map<const OutputSection *, std::vector<CapsuleValue>> capsule_values;
  // Capsules of kernels whose release-fence padding was removed
  // (refinalize_fences.cpp), keyed by the .text section: the bytes that
  // replace the input's .nv.capmerc.text.<f>.
  std::map<const OutputSection *, std::vector<u8>> capsule_replacement;
};

// The link's Mercury state, created on first use.
MercuryState &mercury_state(Context &ctx);
// Null when no Mercury state was made (targets before sm_100).
const MercuryState *find_mercury_state(const Context &ctx);
// The state, or an empty one when none was made (readers only).
const MercuryState &mercury_state_or_empty(const Context &ctx);

} // namespace dlink
