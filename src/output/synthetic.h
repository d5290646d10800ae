// Synthetic sections: the sections whose bytes the link makes rather than
// copies from the inputs (.nv.info records, notes, .nv.compat,
// .nv.callgraph, .nv.prototype, .nv.rel.action, relocations, the symbol
// and string tables).
//
// Each has three steps. prepare() runs on one thread, in the order the
// sections are listed: it may report errors and add .strtab strings.
// size() and write() then depend only on what prepare() computed and on
// the final symbol and section indices, so write() of different sections
// runs independently, in parallel (ctx.par), each into its own section's
// bytes.
#pragma once

#include "output/output_layout.h"

#include <memory>
#include <vector>

namespace dlink {

class SyntheticSection {
public:
  explicit SyntheticSection(OutputSection *sec) : section_(sec) {}
  virtual ~SyntheticSection() = default;
  virtual void prepare(Context &, OutputLayout &) {}
  virtual u64 size() const = 0;
  // Writes exactly size() bytes at `out`.
  virtual void write(u8 *out) const = 0;
  OutputSection *section() const { return section_; }

protected:
  OutputSection *section_;
};

using SyntheticSections = std::vector<std::unique_ptr<SyntheticSection>>;

// The metadata sections of `layout.order` (.nv.info records, callgraph,
// prototype, rel.action, compat, notes, relocations), in the order nvlink's
// checks see them.
SyntheticSections metadata_sections(Context &ctx, const OutputLayout &layout);
// The symbol tables and the string tables (prepared after the metadata,
// which adds .strtab strings).
SyntheticSections table_sections(Context &ctx, const OutputLayout &layout);

// The architecture .note.nv.cuinfo names is the lowest of the target and of
// the inputs' own cuinfo notes (an input from PTX written for an older
// .target carries that target): `sm`, lowered to the one `obj`'s note names.
// The merge asks it of each input as it merges it (OutputModel::cuinfo_sm).
u32 lower_cuinfo_sm(const InputObject &obj, u32 sm);

// prepare() of each in order, then size() and write() of all, in parallel.
void write_synthetic_sections(Context &ctx, OutputLayout &layout, SyntheticSections &list);

} // namespace dlink
