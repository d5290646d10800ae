// Header-index slots for bound texture, sampler and surface references.
#pragma once

#include "link_context.h"

#include <vector>

namespace dlink {

// The order nvlink gives `n` references in the slot table: position i of the
// result is the index (into the list built as described in
// texture_slots.cpp) of the reference that gets the i-th slot.
std::vector<u32> texture_slot_permutation(u32 n);

// Gives every kernel that uses bound references (PTX .texref, .samplerref,
// .surfref) one 4-byte slot per reference of the program at the end of its
// .nv.constant0.<k>, with TEX/SAMP/SURF_HEADER_INDEX relocations for the
// driver, and resolves the code relocations that address those slots.
// Runs after layout, before the other relocations are applied.
void allocate_texture_slots(Context &ctx);

} // namespace dlink
