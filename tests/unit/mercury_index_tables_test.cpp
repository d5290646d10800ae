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
#include <memory>
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
  MercuryState &ms() { return mercury_state(ctx); }

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
    ms().symbol(&s).present = true;
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
    m.ms().symbol_order.push_back(m.symbol_in(m.section(".nv.capmerc.text.f", true, index)));
  OutputSymbol undefined;
  undefined.name = "u";
  m.ms().symbol_order.push_back(&undefined);
  m.layout.symbols = m.ms().symbol_order;
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
  small.ms().symbol_order.push_back(small.symbol_in(small.section(".nv.capmerc.text.g", true, 0xff00)));
  EXPECT_FALSE(mercury_symbol_entries(small.ctx, small.layout).extended);
}

// Placement 2 (the merge itself reaches 0xff00: 647 and 700 TUs): a symbol
// of a SASS section follows .symtab's sm_75..sm_90 rule (SHN_XINDEX from
// 0xff00 on, 0xfff2 written directly), a symbol of a capsule follows the
// rule above (0xff00 direct, 0xfff2 SHN_XINDEX); the other entries hold
// nvlink's number of the SASS section (for a capsule: its .text twin's),
// and a function whose .text sits at 0xfff2 stays there (700 TUs,
// .text.u00606_f11). The table has the Mercury table's count.
TEST(MercuryIndexTables, MergeTableEntriesAreStale) {
  Model m;
  m.layout.stale_entries = true;
  auto function = [&](u32 text_index, u32 capsule_index, u32 number) {
    OutputSection *text = m.section(".text.f", false, text_index);
    text->kind = SectionKind::Text;
    OutputSymbol *sym = m.symbol_in(text);
    text->func = sym;
    m.ms().symbol(sym).section = m.section(".nv.capmerc.text.f", true, capsule_index);
    m.layout.creation_index[text] = number;
    m.ms().symbol_order.push_back(sym);
  };
  auto data = [&](u32 index, u32 number) {
    OutputSection *sec = m.section(".nv.callgraph", false, index);
    m.layout.creation_index[sec] = number;
    m.ms().symbol_order.push_back(m.symbol_in(sec));
  };
  data(7, 6);
  data(0xff00, 70714);
  data(0xfff2, 70715);
  function(100, 0xff00, 3676);
  function(200, 0xfff2, 4000);
  function(0xfff2, 0x186ea, 61231);
  function(300, 0x1fff2, 5000);
  for (int i = 0; i < 3; i++) // (not padded to .symtab's count here)
    m.layout.symbols.push_back(m.ms().symbol_order[0]);

  MercurySymbolEntries e = mercury_symbol_entries(m.ctx, m.layout);
  const u16 shndx[] = {0, 7, SHN_XINDEX, 0xfff2, 0xff00, SHN_XINDEX, 0xfff2, SHN_XINDEX};
  const std::vector<u32> xindex = {0, 6, 0xff00, 70715, 3676, 0xfff2, 61231, 0x1fff2};
  ASSERT_EQ(e.syms.size(), 8u);
  for (size_t i = 0; i < e.syms.size(); i++)
    EXPECT_EQ(e.syms[i].shndx, shndx[i]) << i;
  EXPECT_EQ(e.xindex, xindex);
  EXPECT_FALSE(e.unmeasured);
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
    EXPECT_FALSE(m.layout.family_shndx);
  }
  LinkModel m(30000, 0xff00 - 30000); // 65,281 sections
  place_mercury_index_tables(m.ctx, m.layout);
  ASSERT_TRUE(m.layout.extended);
  EXPECT_FALSE(m.layout.stale_entries);
  EXPECT_EQ(m.layout.shndx_after, 29999u);
  EXPECT_EQ(m.layout.shndx_name_before, 30000u);
  ASSERT_TRUE(m.layout.family_shndx);
  EXPECT_EQ(m.layout.family_shndx_after, size_t(0xff00 - 2));
  EXPECT_EQ(m.layout.family_shndx_name_before, size_t(0xff00 - 1));
}

// A merge that by itself reaches 0xff00 sections: nvlink numbers them as
// on sm_75..sm_90 plus one per REL twin (measured: the .symtab_shndx
// entries of 647 and 700 TUs), and the boundary is where that number
// reaches 0xff00 (646 TUs + 6 pad kernels: 65,279, placement 1; + a
// variable: 65,280, placement 2). The Mercury table follows the capsules,
// its name before .nv.merc.debug_frame's.
TEST(MercuryIndexTables, MergeBoundaryCountsRelTwins) {
  auto model = [](size_t merged) {
    auto m = std::make_unique<LinkModel>(merged, 400);
    const char *skeleton[] = {".shstrtab", ".strtab", ".symtab", ".note.nv.tkinfo", ".note.nv.cuinfo", ".nv.info",
                              ".nv.compat"};
    for (size_t i = 0; i < 7; i++)
      m->ctx.out.sections[i]->name = m->ctx.out.shstrtab_names[i].name = skeleton[i];
    OutputSection *text = m->ctx.out.sections[50];
    text->kind = SectionKind::Text;
    m->ctx.out.sections[100]->type = SHT_REL; // a REL twin of .text
    m->ctx.out.sections[100]->target = text;
    for (size_t i = merged; i < merged + 100; i++)
      m->ctx.out.sections[i]->type = SHT_CUDA_CAPMERC_TEXT;
    m->ctx.out.sections[merged + 100]->name = ".nv.merc.debug_frame";
    m->ctx.out.shstrtab_names[merged + 100].name = ".nv.merc.debug_frame";
    return m;
  };
  // (merged - 1 + 3 + 1 REL twin: the highest number)
  auto below = model(0xff00 - 4);
  place_mercury_index_tables(below->ctx, below->layout);
  EXPECT_FALSE(below->layout.stale_entries);
  EXPECT_TRUE(below->layout.family_shndx); // (placement 1: the image passes 0xff00)

  auto at = model(0xff00 - 3);
  place_mercury_index_tables(at->ctx, at->layout);
  ASSERT_TRUE(at->layout.stale_entries);
  EXPECT_TRUE(at->layout.extended);
  EXPECT_EQ(at->layout.shndx_name_before, size_t(-1)); // (the reserved string)
  EXPECT_EQ(at->layout.family_shndx_after, size_t(0xff00 - 3 + 99));
  EXPECT_EQ(at->layout.family_shndx_name_before, size_t(0xff00 - 3 + 100));
  const auto &number = at->layout.creation_index;
  EXPECT_EQ(number.at(at->ctx.out.sections[2]), 3u);
  EXPECT_EQ(number.at(at->ctx.out.sections[3]), 5u);
  EXPECT_EQ(number.at(at->ctx.out.sections[7]), 10u);
  EXPECT_EQ(number.at(at->ctx.out.sections[100]), 103u);
  EXPECT_EQ(number.at(at->ctx.out.sections[101]), 105u); // (after the REL twin)
  EXPECT_EQ(number.at(at->ctx.out.sections[0xff00 - 3]), 0u); // (created after the merge)
}

// A REL twin of a kind not measured near the boundary, or a merge past it
// without the measured shape (no capsules), is refused.
TEST(MercuryIndexTables, UnmeasuredShapesAreRefused) {
  LinkModel near(0xff00 - 10, 400);
  near.ctx.out.sections[100]->type = SHT_REL; // (no target)
  near.ctx.inputs.resize(20);
  EXPECT_THROW(place_mercury_index_tables(near.ctx, near.layout), FatalError);
  EXPECT_NE(near.err.str().find("not supported by dlink yet for sm_100"), std::string::npos);

  LinkModel past(0xff00, 400);
  EXPECT_THROW(place_mercury_index_tables(past.ctx, past.layout), FatalError);
  EXPECT_NE(past.err.str().find("not supported by dlink yet for sm_100"), std::string::npos);
}

// sm_110's stale copy of the first two section headers in the Mercury
// reserved shared window: .shstrtab's size then (0x60) is the offset of the
// .symtab_shndx string made after the merge in placement 1 (340 TUs), and
// the null header's sh_size (0x20) holds the section count then once it
// passes 0xff00 (700 TUs: 68,614; 647 TUs: 63,421, none).
TEST(MercuryIndexTables, Sm110StaleHeaderCopy) {
  auto window = [](bool placement1, u32 first_late_index) {
    Model m;
    OutputSection *text = m.section(".text.f", false, 1);
    OutputSection *bank = m.section(".nv.constant0.k", true, first_late_index);
    OutputSection *reserved = m.section(".nv.merc.nv.shared.reserved.0", true, first_late_index + 1);
    m.ms().add_copy(reserved);
    reserved->type = SHT_CUDA_SHARED_RESERVED;
    reserved->data.assign(0x80, 0);
    m.ctx.out.sections = {text, bank, reserved};
    m.layout.order = {text, bank, reserved};
    m.layout.shstrtab.add(".symtab_shndx");
    m.layout.shstrtab.add(".text.f");
    m.layout.extended = true;
    if (placement1) {
      m.layout.shndx_name_before = 2;
      m.layout.shndx_name = m.layout.shstrtab.add(".symtab_shndx", 0, true);
    }
    m.layout.shstrtab.add(".nv.constant0.k");
    patch_mercury_sections(m.ctx, m.layout);
    return std::make_pair(read_le<u64>(reserved->data.data() + 0x60), read_le<u64>(reserved->data.data() + 0x20));
  };
  EXPECT_EQ(window(true, 33333), std::make_pair(u64(23), u64(0)));  // (1 + 14 + 8)
  EXPECT_EQ(window(false, 68614), std::make_pair(u64(23), u64(68614)));
  EXPECT_EQ(window(false, 0xff00), std::make_pair(u64(23), u64(0)));
}
