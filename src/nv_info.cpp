// Stage 5: .nv.info metadata (nv_info.h).
//
// Consumes the records merged from the inputs (already in nvlink's list
// order: each input's records in reverse, later inputs first); produces the
// final record lists of .nv.info and every .nv.info.<f>. Symbol fields stay
// pointers to output symbols until serialization assigns indices.
#include "nv_info.h"
#include "arch_format.h"

#include "layout.h"
#include "output_model.h"
#include "pass_timer.h"

#include "dlink/key_index.h"

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

InfoRecord externs_record(std::vector<OutputSymbol *> syms) {
  InfoRecord r;
  r.format = EIFMT_SVAL;
  r.attr = EIATTR_EXTERNS;
  r.syms = std::move(syms);
  r.value = static_cast<u16>(4 * r.syms.size());
  r.payload.assign(4 * r.syms.size(), 0);
  return r;
}

bool by_definition(const OutputSymbol *a, const OutputSymbol *b) { return a->def_order < b->def_order; }

// The merged call graph as the stack-size, register and EXTERNS rules
// walk it. Stack sizes, register counts, cycle warnings, EXTERNS and
// NUM_BARRIERS follow direct calls and indirect ones, to every
// address-taken function of the call site's prototype. Functions are
// numbered once (in the order the edges and records name them); every
// per-function fact is then a vector slot, not a hash-map entry.
class CallGraph {
public:
  struct Walk {
    u32 stack = 0;
    u32 regs = 0;
    int cycles = 0;
  };

  CallGraph(const Context &ctx, const OutputSection *module) {
    // Frame sizes and register counts per function, and the call graph,
    // give each kernel its stack requirement and register count.
    for_each_call_edge(ctx, [&](const OutputSymbol *caller, const OutputSymbol *callee) {
      u32 from = id(caller);
      u32 to = id(callee);
      callees_[from].push_back(callee);
      callee_ids_[from].push_back(to);
    });
    for (const InfoRecord &r : module->records) {
      if (!r.sym || r.payload.size() < 8)
        continue;
      if (r.attr == EIATTR_FRAME_SIZE)
        frame_[id(r.sym)] = read_le<u32>(r.payload.data() + 4);
      if (r.attr == EIATTR_REGCOUNT)
        regs_[id(r.sym)] = read_le<u32>(r.payload.data() + 4);
    }
    mark_.assign(ids_.size(), Mark::Unseen);
    summary_.resize(ids_.size());
    summarized_.assign(ids_.size(), false);
    on_path_.assign(ids_.size(), false);
  }

  const std::vector<const OutputSymbol *> &callees(const OutputSymbol *f) const {
    static const std::vector<const OutputSymbol *> kNone;
    std::optional<u32> n = ids_.find(f);
    return n ? callees_[*n] : kNone;
  }

  // Functions from which no call cycle is reachable: their deepest stack
  // and largest register count do not depend on the path that reached them,
  // so they are computed once (a plain path-by-path walk is exponential in
  // the depth of a call DAG). Only functions that reach a cycle are walked
  // path by path, which is what counts the cycle warnings.
  bool reaches_cycle(const OutputSymbol *f) {
    std::optional<u32> n = ids_.find(f);
    return n && reaches_cycle(*n);
  }

  // Depth-first walk from `root`; recursion makes the stack size unknown.
  // (Each kernel is walked once, for its registers and its stack.)
  Walk walk(const OutputSymbol *root) {
    if (auto done = walked_.find(root); done != walked_.end())
      return done->second;
    Walk w;
    if (std::optional<u32> n = ids_.find(root))
      w.stack = visit(*n, w);
    return walked_[root] = w;
  }

  // The defined functions `kernel` reaches, in definition order. (Reads
  // only: kernels may be asked about concurrently.)
  std::vector<const OutputSymbol *> reached_functions(const OutputSymbol *kernel) const {
    std::vector<const OutputSymbol *> found;
    std::optional<u32> start = ids_.find(kernel);
    if (!start)
      return found;
    const std::vector<const OutputSymbol *> &nodes = ids_.keys();
    std::vector<bool> seen(nodes.size(), false);
    seen[*start] = true;
    std::vector<u32> work{*start};
    while (!work.empty()) {
      u32 f = work.back();
      work.pop_back();
      for (u32 callee : callee_ids_[f])
        if (!seen[callee]) {
          seen[callee] = true;
          work.push_back(callee);
          if (nodes[callee]->defined())
            found.push_back(nodes[callee]);
        }
    }
    std::sort(found.begin(), found.end(), by_definition);
    return found;
  }

private:
  struct Summary {
    u32 stack, regs;
  };
  enum class Mark : u8 { Unseen, Open, Acyclic, Cyclic };

  u32 id(const OutputSymbol *f) {
    auto [n, fresh] = ids_.intern(f);
    if (fresh) {
      callees_.emplace_back();
      callee_ids_.emplace_back();
      frame_.push_back(0);
      regs_.push_back(0);
    }
    return n;
  }

  bool reaches_cycle(u32 f) {
    if (mark_[f] != Mark::Unseen)
      return mark_[f] != Mark::Acyclic;
    mark_[f] = Mark::Open;
    bool cyclic = false;
    for (u32 callee : callee_ids_[f])
      cyclic |= reaches_cycle(callee);
    mark_[f] = cyclic ? Mark::Cyclic : Mark::Acyclic;
    return cyclic;
  }

  Summary summarize(u32 f) {
    if (summarized_[f])
      return summary_[f];
    Summary s{0, regs_[f]};
    for (u32 callee : callee_ids_[f]) {
      Summary c = summarize(callee);
      s.stack = std::max(s.stack, c.stack);
      s.regs = std::max(s.regs, c.regs);
    }
    s.stack += frame_[f];
    summarized_[f] = true;
    return summary_[f] = s;
  }

  u32 visit(u32 f, Walk &w) {
    if (!reaches_cycle(f)) {
      Summary s = summarize(f);
      w.regs = std::max(w.regs, s.regs);
      return s.stack;
    }
    on_path_[f] = true;
    w.regs = std::max(w.regs, regs_[f]);
    u32 deepest = 0;
    for (u32 callee : callee_ids_[f]) {
      if (on_path_[callee]) {
        w.cycles++;
        continue;
      }
      deepest = std::max(deepest, visit(callee, w));
    }
    on_path_[f] = false;
    return frame_[f] + deepest;
  }

  PointerIndex<OutputSymbol> ids_; // (its keys: the functions by number)
  std::vector<std::vector<const OutputSymbol *>> callees_;
  std::vector<std::vector<u32>> callee_ids_;
  std::vector<u32> frame_, regs_;
  std::vector<Mark> mark_;
  std::vector<Summary> summary_;
  std::vector<bool> summarized_, on_path_;
  std::unordered_map<const OutputSymbol *, Walk> walked_;
};

// Kernels and functions in symbol-table order (weak kernels sit in the
// local part).
std::vector<OutputSymbol *> functions_in_symbol_order(const Context &ctx) {
  std::vector<OutputSymbol *> kernels;
  for (OutputSymbol *sym : ctx.out.locals)
    if (sym->in_local_array || (!sym->is_section_symbol && sym->type == STT_FUNC))
      kernels.push_back(sym);
  kernels.insert(kernels.end(), ctx.out.globals.begin(), ctx.out.globals.end());
  return kernels;
}

bool is_live_kernel(const OutputSymbol *k) {
  return !k->removed && k->defined() && k->type == STT_FUNC && k->is_entry() && !k->pruned_entry;
}

// The rewrite of .nv.info and every .nv.info.<f>.
class NvInfoPass {
public:
  NvInfoPass(Context &ctx, StepTimer &timer)
      : ctx_(ctx), timer_(timer), module_(module_info(ctx)), graph_(ctx, module_) {}

  void run() {
    timer_.step("call_graph");
    propagate_register_counts();
    add_min_stack_sizes();
    for (const std::string &e : ctx_.out.late_errors)
      ctx_.diag.error(e);
    timer_.step("module");
    gather_function_facts();
    timer_.step("facts");
    rewrite_function_infos();
    timer_.step("functions");
  }

private:
  static OutputSection *module_info(Context &ctx) {
    OutputSection *module = nullptr;
    for (OutputSection *sec : ctx.out.sections)
      if (sec->kind == SectionKind::ModuleInfo)
        module = sec;
    return module;
  }

  // A kernel whose records take every function's (not the only kernel, or
  // a kernel -kernels-used keeps just for its address when it is not).
  bool takes_reached(const OutputSymbol *f) const {
    return f && f->is_entry() && !f->pruned_entry && !(f->non_root_entry && root_kernel_count_ == 1);
  }

  void propagate_register_counts();
  void add_min_stack_sizes();
  void gather_function_facts();
  std::vector<OutputSymbol *> single_kernel_externs(const OutputSymbol *kernel, bool &others);
  // The functions of the output, reachable ones only (dead_code.h), in
  // definition order.
  std::vector<const OutputSymbol *> all_functions() const;
  // Every .nv.info.<f> rewritten: the records of each computed in
  // parallel, then the added records placed in section order (their place
  // depends on the records of the sections before, already final, and of
  // those after, not yet rewritten: an order nvlink's loop gives them).
  void rewrite_function_infos();
  struct Rewrite {
    std::vector<InfoRecord> added;
    std::optional<InfoRecord> moved;
  };
  Rewrite rewrite_function_info(OutputSection *sec);
  void place_added_records(OutputSection *sec, size_t position, Rewrite &rewrite);
  const std::vector<const OutputSymbol *> &reached(const OutputSymbol *kernel) const {
    return reached_.at(kernel);
  }
  const std::vector<OutputSymbol *> &externs_of(const OutputSymbol *f) const {
    static const std::vector<OutputSymbol *> kNone;
    auto it = externs_of_.find(f);
    return it == externs_of_.end() ? kNone : it->second;
  }
  u16 barriers_of(const OutputSymbol *f) const {
    auto it = barriers_of_.find(f);
    return it == barriers_of_.end() ? 0 : it->second;
  }
  void rewrite_single_kernel_externs(OutputSection *sec, std::vector<InfoRecord> &kept,
                                     std::optional<InfoRecord> &moved);
  void rewrite_externs(OutputSection *sec, std::vector<InfoRecord> &kept, std::optional<InfoRecord> &moved);
  std::optional<InfoRecord> created_externs(OutputSection *sec);
  void mark_recursive_crs_stack(OutputSection *sec);
  std::vector<InfoRecord> added_kernel_records(OutputSection *sec);
  void insert_added_records(OutputSection *sec, size_t position, std::vector<InfoRecord> added);

  Context &ctx_;
  StepTimer &timer_;
  OutputSection *module_;
  CallGraph graph_;
  std::vector<OutputSymbol *> kernels_;
  size_t root_kernel_count_ = 0;
  size_t kernel_count_ = 0;
  std::vector<const OutputSymbol *> recursive_kernels_;
  std::map<const OutputSymbol *, std::vector<OutputSymbol *>> externs_of_;
  std::set<const OutputSymbol *> uses_ctaid_z_;
  std::map<const OutputSymbol *, u16> barriers_of_;
  std::map<const OutputSymbol *, const OutputSection *> info_of_;
  // Each kernel's reached functions (CallGraph::reached_functions), computed
  // once for every kernel that takes them.
  std::unordered_map<const OutputSymbol *, std::vector<const OutputSymbol *>> reached_;
  // Each .nv.info.<f>'s place among them, and the attributes of its
  // records as merged (before any rewrite).
  std::unordered_map<const OutputSection *, size_t> info_position_;
  std::vector<std::vector<u8>> merged_attrs_;
};

// Register counts propagate from callees to the kernels calling them
// (device functions keep their own).
void NvInfoPass::propagate_register_counts() {
  for (InfoRecord &r : module_->records) {
    if (r.attr != EIATTR_REGCOUNT || !r.sym || r.payload.size() < 8 || !r.sym->is_entry() ||
        r.sym->pruned_entry)
      continue;
    u32 n = graph_.walk(r.sym).regs;
    // (The register count in a .text section's sh_info keeps the input's
    // value.)
    write_le<u32>(r.payload.data() + 4, n);
  }
}

void NvInfoPass::add_min_stack_sizes() {
  std::vector<InfoRecord> records;
  records.reserve(module_->records.size() + ctx_.out.globals.size());
  for (InfoRecord &r : module_->records)
    if (r.attr != EIATTR_MAX_STACK_SIZE && !(r.sym && r.sym->removed))
      records.push_back(std::move(r));
  // One MIN_STACK_SIZE per kernel, in symbol-table order.
  kernels_ = functions_in_symbol_order(ctx_);
  // With exactly one kernel that is not kept by -kernels-used just for its
  // address, nvlink gives that kernel alone a MIN_STACK_SIZE and lets it use
  // the barriers of every function; otherwise every kernel has one, those
  // kept for their address included (docs/notes/inputs.md §10).
  root_kernel_count_ = std::count_if(kernels_.begin(), kernels_.end(), [](const OutputSymbol *k) {
    return is_live_kernel(k) && !k->non_root_entry;
  });
  for (OutputSymbol *sym : kernels_) {
    if (!is_live_kernel(sym) || (sym->non_root_entry && root_kernel_count_ == 1))
      continue;
    CallGraph::Walk w = graph_.walk(sym);
    // One warning per call from the kernel into a subgraph that holds a
    // call cycle (measured on 103 random call graphs).
    int warnings = 0;
    for (const OutputSymbol *callee : graph_.callees(sym))
      warnings += graph_.reaches_cycle(callee) ? 1 : 0;
    for (int i = 0; i < warnings; i++)
      if (!ctx_.opts.suppress_stack_size_warning) // (-w does not silence it)
        ctx_.diag.warning_always(fmt::format(
            "Stack size for entry function '{}' cannot be statically determined", sym->name));
    records.push_back(stack_record(EIATTR_MIN_STACK_SIZE, sym, w.cycles ? 0xffffffffu : w.stack));
    if (w.cycles)
      recursive_kernels_.push_back(sym);
  }
  module_->records = std::move(records);
}

// EXTERNS (measured; docs/notes/semantics-findings.md §5). A device
// function keeps its own still-undefined entries. A kernel keeps its own
// (`own`) and gains the still-undefined entries of every defined function
// it reaches (`add`), in definition order (input order, then symbol
// index). When `add` is not empty and the output has exactly one kernel,
// nvlink drops the record and appends a new one at the end of the
// section, listing own + add reversed.
void NvInfoPass::gather_function_facts() {
  for (OutputSection *sec : ctx_.out.sections) {
    if (sec->kind != SectionKind::FunctionInfo || !sec->func)
      continue;
    for (const InfoRecord &r : sec->records) {
      if (r.attr == EIATTR_EXTERNS)
        externs_of_[sec->func].insert(externs_of_[sec->func].end(), r.syms.begin(), r.syms.end());
      if (r.attr == EIATTR_CTAIDZ_USED && !sec->removed)
        uses_ctaid_z_.insert(sec->func);
      if (r.attr == EIATTR_NUM_BARRIERS)
        barriers_of_[sec->func] = std::max(barriers_of_[sec->func], r.value);
    }
    if (!sec->removed)
      info_of_[sec->func] = sec;
  }
  kernel_count_ = std::count_if(kernels_.begin(), kernels_.end(), is_live_kernel);
}

// Kernels stay listed even when defined (they are launched through the
// driver, e.g. device-side launches).
bool external(const OutputSymbol *s) { return !s->defined() || s->is_entry(); }

// The only kernel (root_kernel_count == 1) lists the entries of every
// function of the output, reached or not (an address-taken one too), its
// own included, collected in definition order; when another function
// contributed, the record goes to the end, reversed (created there if the
// kernel had none). Probes: lib.o kx.o gives kx [malloc, vprintf], kx.o
// lib.o [vprintf, malloc]; docs/notes/inputs.md §10.
std::vector<OutputSymbol *> NvInfoPass::single_kernel_externs(const OutputSymbol *kernel, bool &others) {
  std::vector<const OutputSymbol *> functions;
  for (const auto &[f, list] : externs_of_)
    if (f == kernel || (!f->removed && f->defined()))
      functions.push_back(f);
  std::sort(functions.begin(), functions.end(), by_definition);
  std::vector<OutputSymbol *> list;
  others = false;
  for (const OutputSymbol *f : functions)
    for (OutputSymbol *s : externs_of(f))
      if (s && external(s) && std::find(list.begin(), list.end(), s) == list.end()) {
        list.push_back(s);
        others = others || f != kernel;
      }
  return list;
}

std::vector<const OutputSymbol *> NvInfoPass::all_functions() const {
  std::vector<const OutputSymbol *> fs;
  for (const auto &[f, sec] : info_of_)
    if (!f->removed && f->defined() && !f->unreachable)
      fs.push_back(f);
  std::sort(fs.begin(), fs.end(), by_definition);
  return fs;
}

void NvInfoPass::rewrite_single_kernel_externs(OutputSection *sec, std::vector<InfoRecord> &kept,
                                               std::optional<InfoRecord> &moved) {
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
    InfoRecord r = externs_record({list.rbegin(), list.rend()});
    r.moved_to_end = true;
    moved = std::move(r);
  }
  sec->records.clear();
}

void NvInfoPass::rewrite_externs(OutputSection *sec, std::vector<InfoRecord> &kept,
                                 std::optional<InfoRecord> &moved) {
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
      if (takes_reached(sec->func))
        for (const OutputSymbol *f : reached(sec->func))
          for (OutputSymbol *s : externs_of(f))
            if (s && external(s) && !listed(s))
              add.push_back(s);
      r.syms = own;
      r.syms.insert(r.syms.end(), add.begin(), add.end());
      if (r.syms.empty())
        continue;
      r.value = static_cast<u16>(4 * r.syms.size());
      r.payload.assign(4 * r.syms.size(), 0);
      // (The one kernel kept besides address-taken ones is single_kernel.)
      if (!add.empty() && kernel_count_ == 1) {
        std::reverse(r.syms.begin(), r.syms.end());
        r.moved_to_end = true;
        moved = std::move(r);
        continue;
      }
    }
    kept.push_back(std::move(r));
  }
}

// A kernel without an EXTERNS record that reaches functions with
// still-external entries gets one at the end, in definition order (probe
// c3.cu without options: kc reaches fb$3 ->
// __cuda_sm20_dblrcp_rn_slowpath_v3, whose record lists kz and kc).
std::optional<InfoRecord> NvInfoPass::created_externs(OutputSection *sec) {
  std::vector<OutputSymbol *> syms;
  for (const OutputSymbol *f : reached(sec->func))
    for (OutputSymbol *e : externs_of(f))
      if (e && external(e) && std::find(syms.begin(), syms.end(), e) == syms.end())
        syms.push_back(e);
  if (syms.empty())
    return std::nullopt;
  InfoRecord r = externs_record(std::move(syms));
  r.added = true;
  return r;
}

// A recursive kernel's call-return stack size is unknown too (this
// record comes before an added NUM_BARRIERS).
void NvInfoPass::mark_recursive_crs_stack(OutputSection *sec) {
  if (recursive_kernels_.empty() ||
      std::find(recursive_kernels_.begin(), recursive_kernels_.end(),
                find_global(ctx_, sec->name.substr(9))) == recursive_kernels_.end())
    return;
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
std::vector<InfoRecord> NvInfoPass::added_kernel_records(OutputSection *sec) {
  std::vector<InfoRecord> added;
  if (!takes_reached(sec->func))
    return added;
  if (!uses_ctaid_z_.count(sec->func)) {
    bool used = false;
    for (const OutputSymbol *f : reached(sec->func))
      used = used || uses_ctaid_z_.count(f);
    if (root_kernel_count_ == 1)
      for (const OutputSymbol *f : uses_ctaid_z_)
        used = used || (!f->removed && f->defined());
    if (used) {
      InfoRecord r;
      r.format = EIFMT_NVAL;
      r.attr = EIATTR_CTAIDZ_USED;
      added.push_back(std::move(r));
    }
  }
  u16 most = barriers_of(sec->func);
  for (const OutputSymbol *f : reached(sec->func))
    most = std::max(most, barriers_of(f));
  if (root_kernel_count_ == 1)
    for (const auto &[f, n] : barriers_of_)
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
  return added;
}

// Records added to a kernel come in the order in which the functions it
// takes them from first show them: functions in definition order, each
// one's records in order (c3.cu: kc takes EXTERNS from
// __cuda_sm20_dblrcp_rn_slowpath_v3 before NUM_BARRIERS from the later
// fb$3, but both from one fb$1, whose input lists NUM_BARRIERS first).
void NvInfoPass::insert_added_records(OutputSection *sec, size_t position, std::vector<InfoRecord> added) {
  if (added.empty())
    return;
  std::vector<const OutputSymbol *> sources = root_kernel_count_ == 1 && !sec->func->non_root_entry
                                                  ? all_functions()
                                                  : reached(sec->func);
  // A source's records as this section's turn finds them: final for the
  // sections before it (and itself), as merged for those after.
  auto attr_at = [&](const OutputSection *src, size_t k, size_t count) {
    return src->records[count - 1 - k].attr;
  };
  auto first_shown = [&](const InfoRecord &r) {
    for (size_t i = 0; i < sources.size(); i++) {
      auto it = info_of_.find(sources[i]);
      if (it == info_of_.end())
        continue;
      const OutputSection *src = it->second;
      size_t at = info_position_.at(src);
      // (The merged section holds the input's records reversed.)
      if (at <= position) {
        for (size_t j = 0; j < src->records.size(); j++)
          if (attr_at(src, j, src->records.size()) == r.attr)
            return std::pair{i, j};
      } else {
        const std::vector<u8> &attrs = merged_attrs_[at];
        for (size_t j = 0; j < attrs.size(); j++)
          if (attrs[attrs.size() - 1 - j] == r.attr)
            return std::pair{i, j};
      }
    }
    return std::pair{sources.size(), size_t{0}};
  };
  std::stable_sort(added.begin(), added.end(), [&](const InfoRecord &a, const InfoRecord &b) {
    return first_shown(a) < first_shown(b);
  });
  for (InfoRecord &r : added)
    insert_before_bank_tail(sec->records, std::move(r));
}

void NvInfoPass::rewrite_function_infos() {
  std::vector<OutputSection *> infos;
  for (OutputSection *sec : ctx_.out.sections)
    if (sec->kind == SectionKind::FunctionInfo) {
      info_position_.emplace(sec, infos.size());
      infos.push_back(sec);
    }
  merged_attrs_.resize(infos.size());
  std::vector<const OutputSymbol *> takers;
  for (OutputSection *sec : infos)
    if (takes_reached(sec->func) && reached_.try_emplace(sec->func).second)
      takers.push_back(sec->func);
  std::vector<std::vector<const OutputSymbol *>> found(takers.size());
  ctx_.par.for_each_index(takers.size(), [&](size_t i) { found[i] = graph_.reached_functions(takers[i]); });
  for (size_t i = 0; i < takers.size(); i++)
    reached_[takers[i]] = std::move(found[i]);
  std::vector<Rewrite> rewrites(infos.size());
  ctx_.par.for_each_index(infos.size(), [&](size_t i) {
    for (const InfoRecord &r : infos[i]->records)
      merged_attrs_[i].push_back(r.attr);
  }, 256);
  ctx_.par.for_each_index(infos.size(), [&](size_t i) { rewrites[i] = rewrite_function_info(infos[i]); }, 16);
  for (size_t i = 0; i < infos.size(); i++)
    place_added_records(infos[i], i, rewrites[i]);
}

NvInfoPass::Rewrite NvInfoPass::rewrite_function_info(OutputSection *sec) {
  const bool single_kernel = root_kernel_count_ == 1 && sec->func && is_live_kernel(sec->func) &&
                             !sec->func->non_root_entry;
  std::vector<InfoRecord> kept;
  std::optional<InfoRecord> moved, created;
  const bool had_externs = std::any_of(sec->records.begin(), sec->records.end(),
                                       [](const InfoRecord &r) { return r.attr == EIATTR_EXTERNS; });
  if (single_kernel)
    rewrite_single_kernel_externs(sec, kept, moved);
  rewrite_externs(sec, kept, moved);
  if (!single_kernel && takes_reached(sec->func) && !had_externs)
    created = created_externs(sec);
  sec->records = std::move(kept);
  mark_recursive_crs_stack(sec);
  // CTAIDZ_USED, NUM_BARRIERS, EXTERNS the link adds.
  Rewrite rewrite{added_kernel_records(sec), std::move(moved)};
  if (created)
    rewrite.added.push_back(std::move(*created));
  return rewrite;
}

void NvInfoPass::place_added_records(OutputSection *sec, size_t position, Rewrite &rewrite) {
  insert_added_records(sec, position, std::move(rewrite.added));
  // The moved record goes to the end, after an added NUM_BARRIERS (probe
  // c3: k0 under -kernels-used=k0) and ahead of the sm_100+ parameter-bank
  // records (those are re-added after it).
  if (rewrite.moved)
    insert_before_bank_tail(sec->records, std::move(*rewrite.moved));
  if (sec->records.empty())
    sec->removed = true;
}

} // namespace

void build_nv_info(Context &ctx) {
  StepTimer timer(ctx, "build_nv_info");
  NvInfoPass(ctx, timer).run();
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

  // Each kernel's other banks (".nv.constant<N>.<k>", N not 0) and each
  // bank's relocation sections, in creation order, found once for all
  // kernels.
  std::unordered_map<std::string_view, std::vector<const OutputSection *>> banks_of;
  std::unordered_map<const OutputSection *, std::vector<const OutputSection *>> relocs_of;
  for (const OutputSection *sec : ctx.out.sections) {
    if (sec->removed)
      continue;
    if (sec->kind == SectionKind::Constant && !sec->name.starts_with(".nv.constant0."))
      if (size_t dot = sec->name.find('.', 12); dot != std::string_view::npos)
        banks_of[sec->name.substr(dot + 1)].push_back(sec);
    if (sec->kind == SectionKind::Reloc && sec->target)
      relocs_of[sec->target].push_back(sec);
  }

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
    if (auto it = banks_of.find(name); it != banks_of.end())
      for (const OutputSection *sec : it->second)
        more_banks += fmt::format(", {} bytes cmem[{}]", sec->size,
                                  sec->name.substr(12, sec->name.find('.', 12) - 12));
    u64 smem = shared && !shared->removed ? shared->size : 0;
    // sm_100+: the report comes before the parameter banks exist and does not
    // count the reserved shared window (measured).
    std::string cmem0;
    // (-r lays nothing out: no reserved prefix to leave out.)
    if (arch_format(ctx.arch).short_resource_report) {
      if (!ctx.opts.relocatable)
        smem -= std::min<u64>(smem, reserved_shared_bytes(ctx));
    } else
      cmem0 = fmt::format("{} bytes cmem[0]{}, ", bank0 && !bank0->removed ? bank0->size : 0, more_banks);
    // sm_75-90: the header-index slots of bound references the kernel holds,
    // by kind, each when not zero (measured; sm_100+ prints none).
    std::string slots;
    if (!arch_format(ctx.arch).short_resource_report && bank0 && !bank0->removed) {
      u32 textures = 0, surfaces = 0, samplers = 0;
      if (auto rels = relocs_of.find(bank0); rels != relocs_of.end())
        for (const OutputSection *rel : rels->second)
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
