// ELF extended section numbering on sm_100+ (mercury/index_tables.cpp) on
// small synthetic models: links of the real size (65,000 sections and more)
// are checked against nvlink by tools/large-links, too big for the golden
// tree.
#include "dlink/diag.h"
#include "dlink/options.h"
#include "link_context.h"
#include "mercury/output.h"
#include "mercury/state.h"
#include "output/output_layout.h"

#include <gtest/gtest.h>

#include <deque>
#include <sstream>

using namespace dlink;

namespace {

struct Model {
  std::ostringstream err;
  Diagnostics diag{err};
  Options opts = parse_command_line({"nvlink", "-arch=sm_100", "x.cubin", "-o", "x.out"}, diag);
  Context ctx{opts, diag};
  std::deque<OutputSection> sections;
  std::deque<OutputSymbol> symbols;
  OutputLayout layout;

  Model() { ctx.arch = *opts.arch; }

  OutputSection *section(std::string_view name, bool late, u32 index = 0) {
    OutputSection &s = sections.emplace_back();
    s.name = name;
    s.late = late;
    s.index = index;
    return &s;
  }
  OutputSymbol *symbol_in(OutputSection *sec) {
    OutputSymbol &s = symbols.emplace_back();
    s.name = "f";
    s.bind = STB_GLOBAL;
    s.section = sec;
    s.merc.present = true;
    return &s;
  }
};

} // namespace

// Capsule-Mercury symbols keep their full section index: past 0xff00 (and
// at 0xfff2, SHN_COMMON's value) st_shndx is SHN_XINDEX and the table holds
// the index; 0xff00 itself is written into st_shndx with entry 0, as nvlink
// does (sm_100, 331 TUs + 11 pad kernels + two variables; 560 TUs). The
// table has as many entries as .symtab has symbols.
TEST(MercuryIndexTables, SymbolEntriesKeepThirtyTwoBitIndices) {
  Model m;
  const u32 indices[] = {5, 0xfeff, 0xff00, 0xff01, 0xfff2, 0xffff, 0x1fff2};
  for (u32 index : indices)
    m.layout.merc_symbols.push_back(m.symbol_in(m.section(".nv.capmerc.text.f", true, index)));
  OutputSymbol undefined;
  undefined.name = "u";
  m.layout.merc_symbols.push_back(&undefined);
  m.layout.symbols = m.layout.merc_symbols;
  for (int i = 0; i < 4; i++) // (.symtab has more symbols than .nv.merc.symtab)
    m.layout.symbols.push_back(&undefined);

  MercurySymbolEntries e = mercury_symbol_entries(m.ctx, m.layout);
  ASSERT_EQ(e.syms.size(), 9u);
  EXPECT_TRUE(e.extended);
  const u16 shndx[] = {0, 5, 0xfeff, 0xff00, SHN_XINDEX, SHN_XINDEX, SHN_XINDEX, SHN_XINDEX, 0};
  const std::vector<u32> xindex = {0, 0, 0, 0, 0xff01, 0xfff2, 0xffff, 0x1fff2, 0, 0, 0, 0, 0};
  for (size_t i = 0; i < e.syms.size(); i++)
    EXPECT_EQ(e.syms[i].shndx, shndx[i]) << i;
  EXPECT_EQ(e.xindex, xindex);

  Model small;
  small.layout.merc_symbols.push_back(small.symbol_in(small.section(".nv.capmerc.text.g", true, 0xff00)));
  EXPECT_FALSE(mercury_symbol_entries(small.ctx, small.layout).extended);
}

namespace {

// A model of `merged` sections of the SASS merge (the skeleton first) and
// `late` sections created after it, the last one .nv.merc.symtab, in the
// order write_output gives them.
struct LinkModel : Model {
  LinkModel(size_t merged, size_t late) {
    OutputModel &out = ctx.out;
    for (size_t i = 0; i < merged + late; i++) {
      bool is_late = i >= merged;
      std::string_view name = i == merged + late - 1 ? ".nv.merc.symtab" : is_late ? ".nv.capmerc.text.f" : ".text.f";
      OutputSection *sec = section(name, is_late);
      out.sections.push_back(sec);
      if (i == merged) {
        out.closed = true;
        out.shstrtab_closed_at = out.shstrtab_names.size();
      }
      out.shstrtab_names.push_back({sec->name, 0, is_late ? sec : nullptr});
      layout.order.push_back(sec);
    }
    mercury_state(ctx).symtab = out.sections.back();
  }
};

} // namespace

// The tables nvlink makes after the merge: only once the image's highest
// index without them reaches 0xff00 (65,281 sections: measured on sm_100
// with 331 TUs + 11 pad kernels + 1 or 2 variables); .symtab_shndx follows
// the last section of the merge, .nv.merc.symtab_shndx precedes
// .nv.merc.symtab; their names go before those sections' names.
TEST(MercuryIndexTables, PlacedAfterTheMergeFromTheMeasuredCount) {
  {
    LinkModel m(30000, 0xff00 - 30000 - 1); // 65,280 sections: none
    place_mercury_index_tables(m.ctx, m.layout);
    EXPECT_FALSE(m.layout.extended);
    EXPECT_FALSE(m.layout.merc_extended);
  }
  LinkModel m(30000, 0xff00 - 30000); // 65,281 sections
  place_mercury_index_tables(m.ctx, m.layout);
  ASSERT_TRUE(m.layout.extended);
  EXPECT_FALSE(m.layout.stale_entries);
  EXPECT_EQ(m.layout.shndx_after, 29999u);
  EXPECT_EQ(m.layout.shndx_name_before, 30000u);
  ASSERT_TRUE(m.layout.merc_extended);
  EXPECT_EQ(m.layout.merc_shndx_after, size_t(0xff00 - 2));
  EXPECT_EQ(m.layout.merc_shndx_name_before, size_t(0xff00 - 1));
}

// A merge that by itself nears 0xff00 sections (nvlink's section 4
// .symtab_shndx with stale entries, 647 TUs) is refused: nvlink's highest
// number there is the merged count + 2 + one per REL twin (no input here,
// so no margin).
TEST(MercuryIndexTables, MergePastTheBoundIsRefused) {
  LinkModel below(0xff00 - 3, 400);
  place_mercury_index_tables(below.ctx, below.layout);
  EXPECT_TRUE(below.layout.merc_extended);
  LinkModel m(0xff00 - 2, 400);
  EXPECT_THROW(place_mercury_index_tables(m.ctx, m.layout), FatalError);
  EXPECT_NE(m.err.str().find("not supported by dlink yet for sm_100"), std::string::npos);
  LinkModel twin(0xff00 - 3, 400);
  twin.ctx.out.sections[100]->type = SHT_REL;
  EXPECT_THROW(place_mercury_index_tables(twin.ctx, twin.layout), FatalError);
}
