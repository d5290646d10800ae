// What the capsule-Mercury stage keeps for the link (sm_100+), beside the
// output model: generic stages never read it (link_context.h ArchState).
#pragma once

#include "link_context.h"

#include <map>
#include <vector>

namespace dlink {

struct MercuryState final : ArchState {
  // .nv.merc.symtab (created by build_mercury).
  OutputSection *symtab = nullptr;
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

} // namespace dlink
