// nvlink's own section numbers and the .symtab_shndx boundary on sm_90
// (output/section_order.cpp, output_layout.h), on synthetic models of the
// real size: links that create about 65,280 sections are checked against
// nvlink by tools/large-links (--threshold, --relocatable-threshold), too big
// for the golden tree.
#include "model_link.h"
#include "output/output_layout.h"
#include "output/sections.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>

using namespace dlink;

namespace {

// A link of `total` created sections: the skeleton, then code sections, the
// first `removed` of which are dropped before the image is laid out.
struct Link : ModelLink {
  OutputLayout layout;

  Link(bool relocatable, size_t total, size_t removed = 0)
      : ModelLink(relocatable ? std::vector<std::string>{"nvlink", "-arch=sm_90", "-r", "x.cubin", "-o", "x.out"}
                              : std::vector<std::string>{"nvlink", "-arch=sm_90", "x.cubin", "-o", "x.out"}) {
    while (ctx.out.sections.size() < total)
      create_section(ctx, ctx.arena.save(".text.f" + std::to_string(ctx.out.sections.size())), SHT_PROGBITS, 6, 128);
    for (size_t i = 0; i < removed; i++)
      ctx.out.sections[7 + i]->removed = true;
    order_sections(ctx, layout);
  }
  OutputSection *section(size_t created) { return ctx.out.sections[created]; }
};

} // namespace

// nvlink's highest own number: the sections created, the null section, the
// .symtab_shndx it creates after .symtab and, without -r, one more section
// after the skeleton. The table is there once that number reaches 0xff00:
// 65,278 sections created are below it with -r and at it without.
TEST(SectionNumbering, RelocatableLinkCountsOneSectionFewer) {
  EXPECT_FALSE(Link(true, 65278).layout.extended);
  EXPECT_TRUE(Link(true, 65279).layout.extended);
  EXPECT_FALSE(Link(false, 65277).layout.extended);
  EXPECT_TRUE(Link(false, 65278).layout.extended);
}

// The first section after the skeleton (7 sections on sm_90) is number 9
// with -r (measured: a device-function TU's .text.zz), 10 without.
TEST(SectionNumbering, FirstSectionAfterTheSkeleton) {
  Link r(true, 70000), e(false, 70000);
  ASSERT_EQ(r.section(7)->name, ".text.f7");
  EXPECT_EQ(r.layout.creation_index.at(r.section(7)), 9u);
  EXPECT_EQ(e.layout.creation_index.at(e.section(7)), 10u);
  EXPECT_EQ(r.layout.creation_index.at(r.section(3)), 5u); // (.note.nv.tkinfo)
  EXPECT_EQ(e.layout.creation_index.at(e.section(3)), 5u);
}

// With -r, the section nvlink numbers SHN_COMMON (0xfff2) is referred to as
// 0xfff2 whatever its index; without -r it is renumbered like the others.
TEST(SectionNumbering, RelocatableLinkKeepsTheCommonNumber) {
  Link r(true, 70000, 100), e(false, 70000, 100);
  OutputSection *kept = r.section(0xfff2 - 2); // (number: position + 2 with -r)
  ASSERT_EQ(r.layout.creation_index.at(kept), 0xfff2u);
  EXPECT_EQ(kept->index, 0xfff2u - 100); // (100 sections removed before it)
  EXPECT_EQ(r.layout.referenced_index(kept), 0xfff2u);
  EXPECT_EQ(r.layout.referenced_index(r.section(0xfff2 - 1)), r.section(0xfff2 - 1)->index);
  OutputSection *renumbered = e.section(0xfff2 - 3);
  ASSERT_EQ(e.layout.creation_index.at(renumbered), 0xfff2u);
  EXPECT_EQ(e.layout.referenced_index(renumbered), renumbered->index);
  EXPECT_EQ(renumbered->index, 0xfff2u - 101);
}

// e_flags' top byte is .note.nv.cuinfo's index, at most 0xff: nvlink writes
// 0xff for index 277 (700 -lineinfo TUs, whose .nv_debug_ptx_txt.<hash>
// sections come before it) and 361 (1,000 TUs); 220 (500 TUs) as it is.
TEST(SectionNumbering, CuinfoIndexInFlagsSaturates) {
  Link l(false, 16);
  OutputSection *cuinfo = find_section(l.ctx, ".note.nv.cuinfo");
  ASSERT_NE(cuinfo, nullptr);
  for (u32 index : {220u, 255u, 277u, 361u}) {
    cuinfo->index = index;
    build_file_header(l.ctx, l.layout);
    EXPECT_EQ(l.ctx.output_elf.flags >> 24, std::min(index, 0xffu)) << index;
    EXPECT_EQ(l.ctx.output_elf.flags & 0xffffff, 0x5a04u);
  }
}
