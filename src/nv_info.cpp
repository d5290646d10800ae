// Stage 5: .nv.info metadata (nv_info.h).
//
// Consumes the records merged from the inputs (already in nvlink's list
// order: each input's records in reverse, later inputs first); produces the
// final record lists of .nv.info and every .nv.info.<f>. Symbol fields stay
// pointers to output symbols until serialization assigns indices.
#include "nv_info.h"

#include "layout.h"
#include "output_model.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace dlink {

namespace {

// Records added after the merge go to the end of a function's section,
// ahead of the sm_100+ parameter-bank records (those are re-added last).
void insert_before_bank_tail(std::vector<InfoRecord> &records, InfoRecord r) {
  records.insert(std::find_if(records.begin(), records.end(), [](const InfoRecord &x) { return x.bank_tail; }),
                 std::move(r));
}

} // namespace

namespace {

// Call-graph edges: caller -> callees, in insertion order.
using Edges = std::unordered_map<const OutputSymbol *, std::vector<const OutputSymbol *>>;

const std::vector<const OutputSymbol *> &edges_from(const Edges &edges, const OutputSymbol *f) {
  static const std::vector<const OutputSymbol *> kNone;
  auto it = edges.find(f);
  return it == edges.end() ? kNone : it->second;
}

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

  // Frame sizes and register counts per function, and the call graph,
  // give each kernel its stack requirement and register count.
  std::unordered_map<const OutputSymbol *, u32> frame, regs;
  for (const InfoRecord &r : module->records) {
    if (!r.sym || r.payload.size() < 8)
      continue;
    if (r.attr == EIATTR_FRAME_SIZE)
      frame[r.sym] = read_le<u32>(r.payload.data() + 4);
    if (r.attr == EIATTR_REGCOUNT)
      regs[r.sym] = read_le<u32>(r.payload.data() + 4);
  }
  // Stack sizes, register counts, cycle warnings, EXTERNS and NUM_BARRIERS
  // follow direct calls and indirect ones, to every address-taken function
  // of the call site's prototype.
  Edges callees;
  for (auto &[caller, callee] : callees_with_indirect(ctx))
    callees[caller].push_back(callee);

  struct Walk {
    u32 stack = 0;
    u32 regs = 0;
    int cycles = 0;
  };
  // Functions from which no call cycle is reachable: their deepest stack
  // and largest register count do not depend on the path that reached them,
  // so they are computed once (a plain path-by-path walk is exponential in
  // the depth of a call DAG). Only functions that reach a cycle are walked
  // path by path, which is what counts the cycle warnings.
  enum class Mark : u8 { Open, Acyclic, Cyclic };
  std::unordered_map<const OutputSymbol *, Mark> mark;
  std::function<bool(const OutputSymbol *)> reaches_cycle = [&](const OutputSymbol *f) -> bool {
    auto [m, fresh] = mark.try_emplace(f, Mark::Open);
    if (!fresh)
      return m->second != Mark::Acyclic;
    bool cyclic = false;
    for (const OutputSymbol *callee : edges_from(callees, f))
      cyclic |= reaches_cycle(callee);
    mark[f] = cyclic ? Mark::Cyclic : Mark::Acyclic;
    return cyclic;
  };
  struct Summary {
    u32 stack, regs;
  };
  std::unordered_map<const OutputSymbol *, Summary> summary;
  std::function<Summary(const OutputSymbol *)> summarize = [&](const OutputSymbol *f) -> Summary {
    if (auto s = summary.find(f); s != summary.end())
      return s->second;
    Summary s{0, regs[f]};
    for (const OutputSymbol *callee : edges_from(callees, f)) {
      Summary c = summarize(callee);
      s.stack = std::max(s.stack, c.stack);
      s.regs = std::max(s.regs, c.regs);
    }
    s.stack += frame[f];
    return summary[f] = s;
  };

  // Depth-first walk from `root`; recursion makes the stack size unknown.
  // (Each kernel is walked once, for its registers and its stack.)
  std::unordered_map<const OutputSymbol *, Walk> walked;
  auto walk = [&](const OutputSymbol *root) {
    if (auto done = walked.find(root); done != walked.end())
      return done->second;
    Walk w;
    std::set<const OutputSymbol *> on_path;
    std::function<u32(const OutputSymbol *)> visit = [&](const OutputSymbol *f) -> u32 {
      if (!reaches_cycle(f)) {
        Summary s = summarize(f);
        w.regs = std::max(w.regs, s.regs);
        return s.stack;
      }
      on_path.insert(f);
      w.regs = std::max(w.regs, regs[f]);
      u32 deepest = 0;
      for (const OutputSymbol *callee : edges_from(callees, f)) {
        if (on_path.count(callee)) {
          w.cycles++;
          continue;
        }
        deepest = std::max(deepest, visit(callee));
      }
      on_path.erase(f);
      return frame[f] + deepest;
    };
    w.stack = visit(root);
    return walked[root] = w;
  };

  // Register counts propagate from callees to the kernels calling them
  // (device functions keep their own).
  for (InfoRecord &r : module->records) {
    if (r.attr != EIATTR_REGCOUNT || !r.sym || r.payload.size() < 8 || !r.sym->is_entry())
      continue;
    u32 n = walk(r.sym).regs;
    // (The register count in a .text section's sh_info keeps the input's
    // value.)
    write_le<u32>(r.payload.data() + 4, n);
  }

  std::vector<InfoRecord> records;
  std::vector<const OutputSymbol *> recursive_kernels;
  for (InfoRecord &r : module->records)
    if (r.attr != EIATTR_MAX_STACK_SIZE && !(r.sym && r.sym->removed))
      records.push_back(std::move(r));
  // One MIN_STACK_SIZE per kernel, in symbol-table order (weak kernels sit
  // in the local part).
  std::vector<OutputSymbol *> kernels;
  for (OutputSymbol *sym : ctx.out.locals)
    if (sym->in_local_array || (!sym->is_section_symbol && sym->type == STT_FUNC))
      kernels.push_back(sym);
  kernels.insert(kernels.end(), ctx.out.globals.begin(), ctx.out.globals.end());
  for (OutputSymbol *sym : kernels) {
    if (sym->removed || !sym->defined() || sym->type != STT_FUNC || !sym->is_entry())
      continue;
    Walk w = walk(sym);
    // One warning per call from the kernel into a subgraph that holds a
    // call cycle (measured on 103 random call graphs).
    int warnings = 0;
    for (const OutputSymbol *callee : edges_from(callees, sym))
      warnings += reaches_cycle(callee) ? 1 : 0;
    for (int i = 0; i < warnings; i++)
      if (!ctx.opts.suppress_stack_size_warning) // (-w does not silence it)
        ctx.diag.warning_always(fmt::format(
            "Stack size for entry function '{}' cannot be statically determined", sym->name));
    records.push_back(
        stack_record(EIATTR_MIN_STACK_SIZE, sym, w.cycles ? 0xffffffffu : w.stack));
    if (w.cycles)
      recursive_kernels.push_back(sym);
  }
  module->records = std::move(records);
  for (const std::string &e : ctx.out.late_errors)
    ctx.diag.error(e);

  // EXTERNS (measured; docs/notes/semantics-findings.md §5). A device
  // function keeps its own still-undefined entries. A kernel keeps its own
  // (`own`) and gains the still-undefined entries of every defined function
  // it reaches (`add`), in definition order (input order, then symbol
  // index). When `add` is not empty and the output has exactly one kernel,
  // nvlink drops the record and appends a new one at the end of the
  // section, listing own + add reversed.
  std::map<const OutputSymbol *, std::vector<OutputSymbol *>> externs_of;
  for (OutputSection *sec : ctx.out.sections) {
    if (sec->kind != SectionKind::FunctionInfo || !sec->func)
      continue;
    for (const InfoRecord &r : sec->records)
      if (r.attr == EIATTR_EXTERNS)
        externs_of[sec->func].insert(externs_of[sec->func].end(), r.syms.begin(), r.syms.end());
  }
  std::map<const OutputSymbol *, u16> barriers_of;
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::FunctionInfo && sec->func)
      for (const InfoRecord &r : sec->records)
        if (r.attr == EIATTR_NUM_BARRIERS)
          barriers_of[sec->func] = std::max(barriers_of[sec->func], r.value);
  size_t kernel_count = std::count_if(kernels.begin(), kernels.end(), [](const OutputSymbol *k) {
    return !k->removed && k->defined() && k->type == STT_FUNC && k->is_entry();
  });
  auto reached_functions = [&](const OutputSymbol *kernel) {
    std::set<const OutputSymbol *> seen{kernel};
    std::vector<const OutputSymbol *> work{kernel}, found;
    while (!work.empty()) {
      const OutputSymbol *f = work.back();
      work.pop_back();
      for (const OutputSymbol *callee : edges_from(callees, f))
        if (seen.insert(callee).second) {
          work.push_back(callee);
          if (callee->defined())
            found.push_back(callee);
        }
    }
    std::sort(found.begin(), found.end(), [](const OutputSymbol *a, const OutputSymbol *b) {
      return a->def_order < b->def_order;
    });
    return found;
  };

  for (OutputSection *sec : ctx.out.sections) {
    if (sec->kind != SectionKind::FunctionInfo)
      continue;
    std::vector<InfoRecord> kept;
    std::optional<InfoRecord> moved;
    for (InfoRecord &r : sec->records) {
      if (r.attr == EIATTR_EXTERNS) {
        std::vector<OutputSymbol *> own, add;
        auto listed = [&](const OutputSymbol *s) {
          return std::find(own.begin(), own.end(), s) != own.end() ||
                 std::find(add.begin(), add.end(), s) != add.end();
        };
        // Kernels stay listed even when defined (they are launched through
        // the driver, e.g. device-side launches).
        auto external = [](const OutputSymbol *s) { return !s->defined() || s->is_entry(); };
        for (OutputSymbol *s : r.syms)
          if (s && external(s) && !listed(s))
            own.push_back(s);
        if (sec->func && sec->func->is_entry())
          for (const OutputSymbol *f : reached_functions(sec->func))
            for (OutputSymbol *s : externs_of[f])
              if (s && external(s) && !listed(s))
                add.push_back(s);
        r.syms = own;
        r.syms.insert(r.syms.end(), add.begin(), add.end());
        if (r.syms.empty())
          continue;
        r.value = static_cast<u16>(4 * r.syms.size());
        r.payload.assign(4 * r.syms.size(), 0);
        if (!add.empty() && kernel_count == 1) {
          std::reverse(r.syms.begin(), r.syms.end());
          r.moved_to_end = true;
          moved = std::move(r);
          continue;
        }
      }
      kept.push_back(std::move(r));
    }
    // The moved record goes to the end, ahead of the sm_100+ parameter-bank
    // records (those are re-added after it).
    if (moved)
      insert_before_bank_tail(kept, std::move(*moved));
    sec->records = std::move(kept);
    // A recursive kernel's call-return stack size is unknown too (this
    // record comes before an added NUM_BARRIERS).
    if (!recursive_kernels.empty() &&
        std::find(recursive_kernels.begin(), recursive_kernels.end(),
                  find_global(ctx, sec->name.substr(9))) != recursive_kernels.end()) {
      auto own = std::find_if(sec->records.begin(), sec->records.end(),
                              [](const InfoRecord &r) { return r.attr == EIATTR_CRS_STACK_SIZE; });
      if (own != sec->records.end()) {
        own->payload.assign(4, 0xff); // the input's record is overwritten in place
      } else {
        InfoRecord crs;
        crs.format = EIFMT_SVAL;
        crs.attr = EIATTR_CRS_STACK_SIZE;
        crs.payload.assign(4, 0xff);
        insert_before_bank_tail(sec->records, std::move(crs));
      }
    }
    // A kernel uses as many named barriers as the deepest user it reaches
    // (the record is added at the end when the kernel itself used none).
    if (sec->func && sec->func->is_entry()) {
      u16 most = barriers_of[sec->func];
      for (const OutputSymbol *f : reached_functions(sec->func))
        most = std::max(most, barriers_of[f]);
      auto own = std::find_if(sec->records.begin(), sec->records.end(),
                              [](const InfoRecord &r) { return r.attr == EIATTR_NUM_BARRIERS; });
      if (own != sec->records.end()) {
        own->value = std::max(own->value, most);
      } else if (most) {
        InfoRecord r;
        r.format = EIFMT_BVAL;
        r.attr = EIATTR_NUM_BARRIERS;
        r.value = most;
        insert_before_bank_tail(sec->records, std::move(r));
      }
    }
    if (sec->records.empty())
      sec->removed = true;
  }
}

namespace {

u32 record_u32(const OutputSection *sec, u8 attr, const OutputSymbol *sym, size_t word) {
  if (!sec)
    return 0;
  for (const InfoRecord &r : sec->records) {
    if (r.attr != attr || (sym && r.sym != sym))
      continue;
    if (r.format == EIFMT_SVAL && r.payload.size() >= 4 * (word + 1))
      return read_le<u32>(r.payload.data() + 4 * word);
    if (r.format != EIFMT_SVAL)
      return r.value;
  }
  return 0;
}

} // namespace

void report_resources(Context &ctx) {
  // Global memory: initialised and uninitialised data; then every
  // module-level constant bank.
  u64 gmem = 0;
  std::string banks;
  OutputSection *module = nullptr;
  for (OutputSection *sec : ctx.out.sections) {
    if (sec->removed)
      continue;
    if (sec->kind == SectionKind::GlobalInit || sec->kind == SectionKind::Global)
      gmem += sec->size;
    if (sec->kind == SectionKind::ModuleInfo)
      module = sec;
    if (sec->kind == SectionKind::Constant && sec->name.find('.', 12) == std::string_view::npos)
      banks += fmt::format(", {} bytes cmem[{}]", sec->size, sec->name.substr(12));
  }
  ctx.diag.info(fmt::format("{} bytes gmem{}", gmem, banks));

  // Kernels, the most recently created first.
  std::vector<OutputSymbol *> kernels;
  for (OutputSymbol *sym : ctx.out.locals)
    if (sym->in_local_array || (!sym->is_section_symbol && sym->type == STT_FUNC))
      kernels.push_back(sym);
  kernels.insert(kernels.end(), ctx.out.globals.begin(), ctx.out.globals.end());
  std::sort(kernels.begin(), kernels.end(), [](const OutputSymbol *a, const OutputSymbol *b) {
    return a->create_seq > b->create_seq;
  });
  for (OutputSymbol *k : kernels) {
    if (k->removed || !k->defined() || k->type != STT_FUNC || !k->is_entry())
      continue;
    std::string name(k->name);
    OutputSection *info = find_section(ctx, ".nv.info." + name);
    OutputSection *shared = find_section(ctx, ".nv.shared." + name);
    OutputSection *bank0 = find_section(ctx, ".nv.constant0." + name);
    u32 stack = record_u32(module, EIATTR_MIN_STACK_SIZE, k, 1);
    if (stack == 0xffffffffu)
      stack = record_u32(module, EIATTR_FRAME_SIZE, k, 1); // not statically known: own frame
    // The kernel's other banks (sm_75-89 OCG constants: ".nv.constant2.<k>").
    std::string more_banks;
    for (OutputSection *sec : ctx.out.sections)
      if (sec->kind == SectionKind::Constant && !sec->removed &&
          !sec->name.starts_with(".nv.constant0.") && sec->name.ends_with("." + name) &&
          sec->name.find('.', 12) == sec->name.size() - name.size() - 1)
        more_banks += fmt::format(", {} bytes cmem[{}]", sec->size,
                                  sec->name.substr(12, sec->name.find('.', 12) - 12));
    u64 smem = shared && !shared->removed ? shared->size : 0;
    // sm_100+: the report comes before the parameter banks exist and does not
    // count the reserved shared window (measured).
    std::string cmem0;
    if (ctx.arch.is_mercury())
      smem -= std::min<u64>(smem, reserved_shared_bytes(ctx));
    else
      cmem0 = fmt::format("{} bytes cmem[0]{}, ", bank0 && !bank0->removed ? bank0->size : 0, more_banks);
    // sm_75-90: the header-index slots of bound references the kernel holds,
    // by kind, each when not zero (measured; sm_100+ prints none).
    std::string slots;
    if (!ctx.arch.is_mercury() && bank0 && !bank0->removed) {
      u32 textures = 0, surfaces = 0, samplers = 0;
      for (const OutputSection *rel : ctx.out.sections)
        if (rel->kind == SectionKind::Reloc && rel->target == bank0 && !rel->removed)
          for (const OutputReloc &r : rel->relocs)
            if (r.sym && ctx.out.texture_slot.count(r.sym)) {
              textures += r.sym->type == STT_CUDA_TEXTURE;
              surfaces += r.sym->type == STT_CUDA_SURFACE;
              samplers += r.sym->type == STT_CUDA_SAMPLER;
            }
      for (auto [n, kind] : {std::pair{textures, "textures"}, {surfaces, "surfaces"}, {samplers, "samplers"}})
        if (n)
          slots += fmt::format(", {} {}", n, kind);
    }
    ctx.diag.info(fmt::format("Function properties for '{}':", k->name));
    ctx.diag.info(fmt::format("used {} registers, used {} barriers, {} stack, {} bytes smem, {}0 bytes lmem{}",
                              record_u32(module, EIATTR_REGCOUNT, k, 1),
                              record_u32(info, EIATTR_NUM_BARRIERS, nullptr, 0), stack, smem, cmem0,
                              slots));
  }
}

} // namespace dlink
