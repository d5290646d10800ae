// reloc_section_for (output_model.h): each target's relocation section,
// also where local functions of one name in several inputs give their
// relocation sections one name, found through an index of the sections
// made since the last such lookup (a scan over every section before).
#include "model_link.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace dlink;

namespace {

struct Link : ModelLink {
  Link() : ModelLink({"nvlink", "-arch=sm_90", "x.cubin", "-o", "x.out"}) {}
  // One input's local function `helper`: its own .text.helper.
  OutputSection *local_text() { return create_section(ctx, ".text.helper", SHT_PROGBITS, 6, 128); }
};

} // namespace

TEST(RelocSectionFor, EachLocalFunctionOfOneNameKeepsItsOwnSections) {
  Link l;
  std::vector<OutputSection *> texts, relas, rels;
  for (int input = 0; input < 50; input++) {
    texts.push_back(l.local_text());
    relas.push_back(reloc_section_for(l.ctx, texts.back(), true));
    // (Sections of other names between the inputs' ones.)
    create_section(l.ctx, l.ctx.arena.save(".text.k" + std::to_string(input)), SHT_PROGBITS, 6, 128);
    if (input % 3 == 0)
      rels.push_back(reloc_section_for(l.ctx, texts.back(), false));
  }
  for (size_t i = 0; i < texts.size(); i++) {
    EXPECT_EQ(relas[i]->target, texts[i]);
    EXPECT_TRUE(relas[i]->rela);
    EXPECT_EQ(relas[i]->name, ".rela.text.helper");
    for (size_t j = 0; j < i; j++)
      EXPECT_NE(relas[i], relas[j]);
    // Asked again (the next relocation section of the same input section),
    // in any order: the same section, nothing new made.
    size_t before = l.ctx.out.sections.size();
    EXPECT_EQ(reloc_section_for(l.ctx, texts[i], true), relas[i]);
    EXPECT_EQ(l.ctx.out.sections.size(), before);
  }
  for (size_t k = 0; k < rels.size(); k++) {
    EXPECT_EQ(rels[k]->target, texts[3 * k]);
    EXPECT_FALSE(rels[k]->rela);
    EXPECT_EQ(reloc_section_for(l.ctx, texts[3 * k], false), rels[k]);
  }
}

TEST(RelocSectionFor, TheFirstRelocationSectionOfATargetIsFoundWhoeverMadeIt) {
  Link l;
  OutputSection *first = l.local_text();
  OutputSection *second = l.local_text();
  ASSERT_EQ(reloc_section_for(l.ctx, first, true)->target, first);
  // A relocation section made elsewhere for `second` (as the layout and the
  // texture slots make theirs), before any lookup for it.
  OutputSection *made = create_section(l.ctx, ".rela.text.helper", SHT_RELA, SHF_INFO_LINK, 8, 24);
  made->rela = true;
  made->target = second;
  OutputSection *later = create_section(l.ctx, ".rela.text.helper", SHT_RELA, SHF_INFO_LINK, 8, 24);
  later->rela = true;
  later->target = second;
  EXPECT_EQ(reloc_section_for(l.ctx, second, true), made);
  // A resolved-relocation list of the target is not its relocation section.
  OutputSection *third = l.local_text();
  OutputSection *resolved = create_section(l.ctx, ".rela.text.helper", SHT_RELA, SHF_INFO_LINK, 8, 24);
  resolved->rela = true;
  resolved->resolved_rela = true;
  resolved->target = third;
  OutputSection *own = reloc_section_for(l.ctx, third, true);
  EXPECT_NE(own, resolved);
  EXPECT_EQ(own->target, third);
  EXPECT_FALSE(own->resolved_rela);
}
