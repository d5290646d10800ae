// Stage 5: .nv.info metadata (nv_info.h).
//
// Consumes the records merged from the inputs (already in nvlink's list
// order: each input's records in reverse, later inputs first); produces the
// final record lists of .nv.info and every .nv.info.<f>. Symbol fields stay
// pointers to output symbols until serialization assigns indices.
#include "nv_info.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace dlink {

namespace {

InfoRecord stack_record(u8 attr, OutputSymbol *sym, u32 bytes) {
  InfoRecord r;
  r.format = EIFMT_SVAL;
  r.attr = attr;
  r.value = 8;
  r.payload.resize(8);
  write_le<u32>(r.payload.data() + 4, bytes);
  r.sym = sym;
  return r;
}

} // namespace

void build_nv_info(Context &ctx) {
  OutputSection *module = nullptr;
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::ModuleInfo)
      module = sec;

  // Frame sizes per function, and the call graph, give each kernel's stack.
  std::map<const OutputSymbol *, u32> frame;
  for (const InfoRecord &r : module->records)
    if (r.attr == EIATTR_FRAME_SIZE && r.sym && r.payload.size() >= 8)
      frame[r.sym] = read_le<u32>(r.payload.data() + 4);
  std::multimap<const OutputSymbol *, const OutputSymbol *> callees;
  for (auto &[caller, callee] : ctx.out.call_edges)
    if (caller && callee)
      callees.emplace(caller, callee);

  std::map<const OutputSymbol *, u32> memo;
  std::set<const OutputSymbol *> active;
  std::function<u32(const OutputSymbol *)> stack_of = [&](const OutputSymbol *f) -> u32 {
    if (auto it = memo.find(f); it != memo.end())
      return it->second;
    if (!active.insert(f).second)
      return 0; // recursion: the stack cannot be determined statically
    u32 deepest = 0;
    auto range = callees.equal_range(f);
    for (auto it = range.first; it != range.second; ++it)
      deepest = std::max(deepest, stack_of(it->second));
    active.erase(f);
    u32 total = frame[f] + deepest;
    memo[f] = total;
    return total;
  };

  std::vector<InfoRecord> records;
  for (InfoRecord &r : module->records)
    if (r.attr != EIATTR_MAX_STACK_SIZE && !(r.sym && r.sym->removed))
      records.push_back(std::move(r));
  for (OutputSymbol *sym : ctx.out.globals)
    if (!sym->removed && sym->defined() && sym->type == STT_FUNC && sym->is_entry())
      records.push_back(stack_record(EIATTR_MIN_STACK_SIZE, sym, stack_of(sym)));
  module->records = std::move(records);

  for (OutputSection *sec : ctx.out.sections) {
    if (sec->kind != SectionKind::FunctionInfo)
      continue;
    std::vector<InfoRecord> kept;
    for (InfoRecord &r : sec->records) {
      if (r.attr == EIATTR_EXTERNS) {
        std::erase_if(r.syms, [](OutputSymbol *s) { return !s || s->defined(); });
        if (r.syms.empty())
          continue;
        r.value = static_cast<u16>(4 * r.syms.size());
        r.payload.assign(4 * r.syms.size(), 0);
      }
      kept.push_back(std::move(r));
    }
    sec->records = std::move(kept);
    if (sec->records.empty())
      sec->removed = true;
  }
}

} // namespace dlink
