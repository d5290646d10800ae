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
  // With exactly one kernel that is not kept by -kernels-used just for its
  // address, nvlink gives that kernel alone a MIN_STACK_SIZE and lets it use
  // the barriers of every function; otherwise every kernel has one, those
  // kept for their address included (docs/notes/inputs.md §10).
  const size_t root_kernel_count =
      std::count_if(kernels.begin(), kernels.end(), [](const OutputSymbol *k) {
        return !k->removed && k->defined() && k->type == STT_FUNC && k->is_entry() &&
               !k->non_root_entry;
      });
  for (OutputSymbol *sym : kernels) {
    if (sym->removed || !sym->defined() || sym->type != STT_FUNC || !sym->is_entry() ||
        (sym->non_root_entry && root_kernel_count == 1))
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
  std::set<const OutputSymbol *> uses_ctaid_z;
  for (OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::FunctionInfo && sec->func && !sec->removed)
      for (const InfoRecord &r : sec->records)
        if (r.attr == EIATTR_CTAIDZ_USED)
          uses_ctaid_z.insert(sec->func);
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

  // Kernels stay listed even when defined (they are launched through the
  // driver, e.g. device-side launches).
  auto external = [](const OutputSymbol *s) { return !s->defined() || s->is_entry(); };
  // The only kernel (root_kernel_count == 1) lists the entries of every
  // function of the output, reached or not (an address-taken one too), its
  // own included, collected in definition order; when another function
  // contributed, the record goes to the end, reversed (created there if the
  // kernel had none). Probes: lib.o kx.o gives kx [malloc, vprintf], kx.o
  // lib.o [vprintf, malloc]; docs/notes/inputs.md §10.
  // With a relocatable link's output among the inputs, the order in which
  // several functions' entries are gathered is not measured (nvlink's
  // differs from the definition order used here): refused.
  auto refuse_gathering_if_prelinked = [&](const OutputSymbol *kernel, size_t contributors) {
    if (ctx.out.prelinked_input && contributors >= 2)
      ctx.diag.fatal(fmt::format("the EXTERNS record of '{}' gathers the entries of several functions "
                                 "of a relocatable link's output (-r); not supported by dlink yet",
                                 kernel->name));
  };
  auto single_kernel_externs = [&](const OutputSymbol *kernel, bool &others) {
    std::vector<const OutputSymbol *> functions;
    for (const auto &[f, list] : externs_of)
      if (f == kernel || (!f->removed && f->defined()))
        functions.push_back(f);
    std::sort(functions.begin(), functions.end(),
              [](const OutputSymbol *a, const OutputSymbol *b) { return a->def_order < b->def_order; });
    std::vector<OutputSymbol *> list;
    others = false;
    size_t contributors = 0;
    for (const OutputSymbol *f : functions) {
      bool contributed = false;
      for (OutputSymbol *s : externs_of[f])
        if (s && external(s) && std::find(list.begin(), list.end(), s) == list.end()) {
          list.push_back(s);
          others = others || f != kernel;
          contributed = true;
        }
      contributors += contributed ? 1 : 0;
    }
    refuse_gathering_if_prelinked(kernel, contributors);
    return list;
  };

  std::map<const OutputSymbol *, const OutputSection *> info_of;
  for (const OutputSection *sec : ctx.out.sections)
    if (sec->kind == SectionKind::FunctionInfo && sec->func && !sec->removed)
      info_of[sec->func] = sec;
  auto all_functions = [&] {
    std::vector<const OutputSymbol *> fs;
    for (const auto &[f, sec] : info_of)
      if (!f->removed && f->defined())
        fs.push_back(f);
    std::sort(fs.begin(), fs.end(), [](const OutputSymbol *a, const OutputSymbol *b) {
      return a->def_order < b->def_order;
    });
    return fs;
  };

  for (OutputSection *sec : ctx.out.sections) {
    if (sec->kind != SectionKind::FunctionInfo)
      continue;
    const bool single_kernel = root_kernel_count == 1 && sec->func && sec->func->is_entry() &&
                               !sec->func->non_root_entry && !sec->func->removed;
    std::vector<InfoRecord> kept;
    std::optional<InfoRecord> moved;
    std::optional<InfoRecord> created_externs;
    const bool had_externs = std::any_of(sec->records.begin(), sec->records.end(),
                                         [](const InfoRecord &r) { return r.attr == EIATTR_EXTERNS; });
    if (single_kernel) {
      bool others = false;
      std::vector<OutputSymbol *> list = single_kernel_externs(sec->func, others);
      bool had_record = false;
      for (InfoRecord &r : sec->records) {
        if (r.attr == EIATTR_EXTERNS) {
          if (had_record || others || list.empty()) {
            had_record = true;
            continue;
          }
          had_record = true;
          r.syms = list;
          r.value = static_cast<u16>(4 * r.syms.size());
          r.payload.assign(4 * r.syms.size(), 0);
        }
        kept.push_back(std::move(r));
      }
      if (others) {
        InfoRecord r;
        r.format = EIFMT_SVAL;
        r.attr = EIATTR_EXTERNS;
        r.syms.assign(list.rbegin(), list.rend());
        r.value = static_cast<u16>(4 * r.syms.size());
        r.payload.assign(4 * r.syms.size(), 0);
        r.moved_to_end = true;
        moved = std::move(r);
      }
      sec->records.clear();
    }
    for (InfoRecord &r : sec->records) {
      if (r.attr == EIATTR_EXTERNS) {
        std::vector<OutputSymbol *> own, add;
        auto listed = [&](const OutputSymbol *s) {
          return std::find(own.begin(), own.end(), s) != own.end() ||
                 std::find(add.begin(), add.end(), s) != add.end();
        };
        for (OutputSymbol *s : r.syms)
          if (s && external(s) && !listed(s))
            own.push_back(s);
        size_t contributors = 0;
        if (sec->func && sec->func->is_entry() &&
            !(sec->func->non_root_entry && root_kernel_count == 1))
          for (const OutputSymbol *f : reached_functions(sec->func)) {
            size_t before = add.size();
            for (OutputSymbol *s : externs_of[f])
              if (s && external(s) && !listed(s))
                add.push_back(s);
            contributors += add.size() > before ? 1 : 0;
          }
        refuse_gathering_if_prelinked(sec->func, contributors + (own.empty() ? 0 : 1));
        r.syms = own;
        r.syms.insert(r.syms.end(), add.begin(), add.end());
        if (r.syms.empty())
          continue;
        r.value = static_cast<u16>(4 * r.syms.size());
        r.payload.assign(4 * r.syms.size(), 0);
        // (The one kernel kept besides address-taken ones is single_kernel.)
        if (!add.empty() && kernel_count == 1) {
          std::reverse(r.syms.begin(), r.syms.end());
          r.moved_to_end = true;
          moved = std::move(r);
          continue;
        }
      }
      kept.push_back(std::move(r));
    }
    // A kernel without an EXTERNS record that reaches functions with
    // still-external entries gets one at the end, in definition order (probe
    // c3.cu without options: kc reaches fb$3 ->
    // __cuda_sm20_dblrcp_rn_slowpath_v3, whose record lists kz and kc).
    if (!single_kernel && sec->func && sec->func->is_entry() &&
        !(sec->func->non_root_entry && root_kernel_count == 1) && !had_externs) {
      InfoRecord r;
      r.format = EIFMT_SVAL;
      r.attr = EIATTR_EXTERNS;
      size_t contributors = 0;
      for (const OutputSymbol *f : reached_functions(sec->func)) {
        size_t before = r.syms.size();
        for (OutputSymbol *e : externs_of[f])
          if (e && external(e) && std::find(r.syms.begin(), r.syms.end(), e) == r.syms.end())
            r.syms.push_back(e);
        contributors += r.syms.size() > before ? 1 : 0;
      }
      refuse_gathering_if_prelinked(sec->func, contributors);
      if (!r.syms.empty()) {
        r.value = static_cast<u16>(4 * r.syms.size());
        r.payload.assign(4 * r.syms.size(), 0);
        r.added = true;
        created_externs = std::move(r);
      }
    }
    sec->records = std::move(kept);
    std::vector<InfoRecord> added; // CTAIDZ_USED, NUM_BARRIERS, EXTERNS the link adds
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
    // The only kernel of the output (not counting kernels -kernels-used
    // keeps just for their address) takes the most of every function's,
    // address-taken ones included, even those it does not reach
    // (docs/notes/inputs.md §10).
    // CTAIDZ_USED likewise: added at the end to a kernel that reaches a
    // function using %ctaid.z (the only kernel: when any function does).
    if (sec->func && sec->func->is_entry() &&
        !(sec->func->non_root_entry && root_kernel_count == 1) &&
        !uses_ctaid_z.count(sec->func)) {
      bool used = false;
      for (const OutputSymbol *f : reached_functions(sec->func))
        used = used || uses_ctaid_z.count(f);
      if (root_kernel_count == 1)
        for (const OutputSymbol *f : uses_ctaid_z)
          used = used || (!f->removed && f->defined());
      if (used) {
        InfoRecord r;
        r.format = EIFMT_NVAL;
        r.attr = EIATTR_CTAIDZ_USED;
        added.push_back(std::move(r));
      }
    }
    if (sec->func && sec->func->is_entry() &&
        !(sec->func->non_root_entry && root_kernel_count == 1)) {
      u16 most = barriers_of[sec->func];
      for (const OutputSymbol *f : reached_functions(sec->func))
        most = std::max(most, barriers_of[f]);
      if (root_kernel_count == 1)
        for (const auto &[f, n] : barriers_of)
          if (!f->removed && f->defined())
            most = std::max(most, n);
      auto own = std::find_if(sec->records.begin(), sec->records.end(),
                              [](const InfoRecord &r) { return r.attr == EIATTR_NUM_BARRIERS; });
      if (own != sec->records.end()) {
        own->value = std::max(own->value, most);
      } else if (most) {
        InfoRecord r;
        r.format = EIFMT_BVAL;
        r.attr = EIATTR_NUM_BARRIERS;
        r.value = most;
        added.push_back(std::move(r));
      }
    }
    if (created_externs)
      added.push_back(std::move(*created_externs));
    // Records added to a kernel come in the order in which the functions it
    // takes them from first show them: functions in definition order, each
    // one's records in order (c3.cu: kc takes EXTERNS from
    // __cuda_sm20_dblrcp_rn_slowpath_v3 before NUM_BARRIERS from the later
    // fb$3, but both from one fb$1, whose input lists NUM_BARRIERS first).
    if (!added.empty()) {
      std::vector<const OutputSymbol *> sources =
          root_kernel_count == 1 && !sec->func->non_root_entry ? all_functions()
                                                                : reached_functions(sec->func);
      auto first_shown = [&](const InfoRecord &r) {
        for (size_t i = 0; i < sources.size(); i++) {
          auto it = info_of.find(sources[i]);
          if (it == info_of.end())
            continue;
          // (The merged section holds the input's records reversed.)
          const auto &recs = it->second->records;
          for (size_t j = 0; j < recs.size(); j++)
            if (recs[recs.size() - 1 - j].attr == r.attr)
              return std::pair{i, j};
        }
        return std::pair{sources.size(), size_t{0}};
      };
      std::stable_sort(added.begin(), added.end(), [&](const InfoRecord &a, const InfoRecord &b) {
        return first_shown(a) < first_shown(b);
      });
      for (InfoRecord &r : added)
        insert_before_bank_tail(sec->records, std::move(r));
    }
    // The moved record goes to the end, after an added NUM_BARRIERS (probe
    // c3: k0 under -kernels-used=k0) and ahead of the sm_100+ parameter-bank
    // records (those are re-added after it).
    if (moved)
      insert_before_bank_tail(sec->records, std::move(*moved));
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
