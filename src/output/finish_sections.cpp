// finish_sections (writer.h): the sections nvlink creates once the merge is
// done, and the renames of sm_100+ banks.
#include "writer.h"

#include "output_model.h"

#include <algorithm>
#include <unordered_set>

namespace dlink {

void finish_sections(Context &ctx) {
  OutputModel &out = ctx.out;
  create_callgraph_sections(ctx);
  OutputSection *prototype = find_section(ctx, ".nv.prototype");
  if (ctx.arch.sm < 100)
    create_section(ctx, ".nv.rel.action", SHT_CUDA_RELOCINFO, 0, 8, 8);
  // Prototypes are kept only for functions something calls directly (the
  // strings stay in .strtab regardless).
  std::unordered_set<const OutputSymbol *> called;
  for (size_t i = 0; i < out.call_edges.size(); i++)
    if (!out.dead_call_edges.count(i))
      called.insert(out.call_edges[i].second);
  // Address-taken functions are described by the call graph's block 2
  // instead and drop out too.
  // With -g and --preserve-relocs (no function is removed) uncalled
  // functions keep theirs.
  std::erase_if(out.prototypes, [&](const auto &p) {
    return (!ctx.opts.debug && !ctx.opts.preserve_relocs && !called.count(p.first)) ||
           out.address_taken_syms.count(p.first);
  });
  // Entries are in the order the output symbols were created (first
  // reference or definition while merging the inputs in link order), not in
  // input order or .symtab order: weak definitions sit in the local array.
  std::stable_sort(out.prototypes.begin(), out.prototypes.end(), [](const auto &x, const auto &y) {
    return (x.first ? x.first->create_seq : 0) < (y.first ? y.first->create_seq : 0);
  });
  if (out.prototypes.empty())
    prototype->removed = true;
  finish_late_sections(ctx);
}

void finish_late_sections(Context &ctx) {
  OutputModel &out = ctx.out;
  // From here on nvlink's global symbols are fixed; what is created now goes
  // after them (sm_100 and newer).
  out.closed = true;
  out.shstrtab_closed_at = out.shstrtab_names.size();
  // The user bank and its relocation section (a pointer initialiser such as
  // `__constant__ int *cp = &x`) take their sm_75-sm_90 names; the new
  // relocation section name gets no .strtab string (measured, sm_100/sm_120).
  if (OutputSection *user = find_section(ctx, ".nv.constant.user"); user && !user->removed) {
    rename_section(ctx, user, ".nv.constant3");
    if (OutputSection *rel = find_section(ctx, ".rela.nv.constant.user"))
      rename_section(ctx, rel, ".rela.nv.constant3", false);
  }
  // Banks with texture header-index slots (sm_100+) take their names back;
  // the new relocation section name gets no .strtab string.
  for (const auto &hb : out.header_index_banks) {
    rename_section(ctx, hb.bank, hb.final_name);
    rename_section(ctx, hb.rela, ".rela" + std::string(hb.final_name), false);
  }
  // Optimizer constant banks (sm_100+, §16): the banks, then their RELA
  // sections (whose new names get no .strtab string).
  for (const auto &ob : out.optimizer_banks)
    rename_section(ctx, ob.bank, ob.final_name);
  for (OutputSection *rel : out.optimizer_relas)
    rename_section(ctx, rel, ".rela" + std::string(rel->target->name), false);
  // The kernels' parameter banks (sm_100+) are created in the order of the
  // kernels' code sections.
  auto code_seq = [&](const OutputSection *bank) {
    const OutputSection *text = find_section(ctx, ".text." + std::string(bank->name.substr(14)));
    return text ? text->create_seq : ~0u;
  };
  std::stable_sort(out.deferred_sections.begin(), out.deferred_sections.end(),
                   [&](const OutputSection *a, const OutputSection *b) { return code_seq(a) < code_seq(b); });
  for (OutputSection *sec : out.deferred_sections)
    register_section(ctx, sec);
}

} // namespace dlink
