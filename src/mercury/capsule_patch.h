// Values the link resolves into capsule-Mercury code (sm_100+): written into
// the capsules' encoded instruction records (docs/notes/semantics-findings.md §18).
#pragma once

#include "link_context.h"

#include <span>
#include <vector>

namespace dlink {

// The capsule holds the code in an encoded form; the Mercury relocations
// address its decoded instruction stream. What is known of the encoding
// (measured, not derived: docs/notes/semantics-findings.md §18): a header
// (u32 section index, u32, u32 count, ceil(count/32) mask words), then one
// item per SASS instruction of the function (count of them): mask bit 1 =
// the item has no bytes; bit 0 = the next record, whose first byte h gives
// its length (capsule_record_size; measured on the 6,400 sm_100+ capsules
// under testdata/, all of which end exactly after the last item).
// nvlink writes the value of each Mercury relocation it
// resolves (S + A, 16 or 32 bits) into the record of the SASS instruction
// that carries the twin SASS relocation: a 2-unit record 02 22 xx 06 whose
// u32 at +0x1c holds it (0 in the input); an instruction without bytes
// gets nothing. Only constant-bank and header-index values are placed;
// anything that does not fit this is refused.
// An item stands for one instruction, or for `insns` consecutive ones where
// its record starts with a 0x51/0xd1 token w: w >> 7 of them, the item's
// own first (a fence's padding and sequence, a shuffle, a debug exit's
// sequence with its EXIT; measured on every such capsule under testdata/:
// the kernel's instruction count is the sum over its items).
struct CapsuleItem {
  size_t pos = 0; // 0: no bytes
  size_t size = 0;
  size_t insns = 1;
};

// The length of the record at c[pos], from its first byte h: with bit 0x40
// (low nibble n), for 0x51/0xd1 a 2-byte token (a fence's or a debug exit's)
// plus the length of the record after it, 4 for other n = 1 and for n = 2,
// else 2n (at least 2); without it 16 for n = 1, 32 for n = 2, else 14.
// 0 where a 0x51/0xd1 token has no record after it.
size_t capsule_record_size(std::span<const u8> c, size_t pos);

// The items of capsule `c` (its header's count of them); false where the
// bytes do not follow the rule above.
bool parse_capsule(std::span<const u8> c, std::vector<CapsuleItem> &items);

// For each instruction index (from 0 to the sum of the items' spans), the
// item it belongs to; items[k] covers first[k] .. first[k] + insns - 1.
std::vector<size_t> capsule_item_of_instruction(const std::vector<CapsuleItem> &items);

// Writes each constant-bank and header-index value recorded in
// MercuryState::capsule_values into its capsule; a value dlink cannot place
// is a fatal error.
void patch_capsules(Context &ctx);

} // namespace dlink
