// -dump-callgraph (callgraph_dump.h). Rules measured against nvlink:
// * Nodes are the function symbols in creation order (first appearance
//   across the inputs, undefined references included), numbered from 1.
//   A function removed by the link keeps its number and prints "N: ".
// * `^` marks a kernel (with -kernels-used, only one the option keeps), `&`
//   an address-taken function, `[N]` the register
//   count of the function's own code (absent for undefined functions).
// * A function's callees: its direct calls, then for each of its indirect
//   call sites (last site first) every address-taken function with the
//   site's prototype, in node order (the inputs' own prototype-match lists
//   are not used); printed most recent first.
// * Register propagation: for each defined function in definition order,
//   every kernel reaching it (kernels most recently created first) whose
//   count so far is lower takes the function's count, with one line each.
#include "callgraph_dump.h"

#include "dead_code.h"
#include "dlink/demangle.h"
#include "output_model.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

namespace dlink {

namespace {

// nvcc names some file-local functions "__nv_static_<N>_<N chars>_<name>"
// (libcudadevrt's, for instance); nvlink prints them as <name>.
std::string_view strip_static_prefix(std::string_view name) {
  constexpr std::string_view kPrefix = "__nv_static_";
  if (!name.starts_with(kPrefix))
    return name;
  std::string_view rest = name.substr(kPrefix.size());
  size_t digits = 0, n = 0;
  while (digits < rest.size() && digits < 6 && rest[digits] >= '0' && rest[digits] <= '9')
    n = n * 10 + static_cast<size_t>(rest[digits++] - '0');
  if (digits == 0 || rest.size() < digits + 1 + n + 1 || rest[digits] != '_' || rest[digits + 1 + n] != '_')
    return name;
  return rest.substr(digits + 1 + n + 1);
}

std::string display_name(std::string_view name) {
  std::string_view plain = strip_static_prefix(name);
  if (auto d = demangle(plain))
    return *d;
  return std::string(plain);
}

} // namespace

std::string describe_callgraph(const Context &ctx) {
  const OutputModel &out = ctx.out;
  // Nodes: every function symbol of the inputs, dead ones included, in
  // order of first appearance (a global name once, each local on its own).
  const KernelFilter filter = kernel_filter(ctx);
  std::vector<const OutputSymbol *> nodes; // nullptr: removed
  NameMap<size_t> global_node;         // name -> number
  std::map<std::pair<u32, u32>, size_t> local_node;                 // (input, symbol) -> number
  for (const InputObject *obj : ctx.inputs)
    for (u32 i = 1; i < obj->symbols.size(); i++) {
      const ElfSymbol &s = obj->symbols[i];
      if (s.type() != STT_FUNC)
        continue;
      if (s.bind() == STB_LOCAL)
        local_node.emplace(std::pair{obj->index, i}, nodes.size() + 1);
      else if (!global_node.emplace(s.name, nodes.size() + 1).second)
        continue;
      const OutputSymbol *f = i < obj->sym_map.size() ? obj->sym_map[i] : nullptr;
      if (OutputSymbol *const *g = ctx.out.global_by_name.find(s.name); f && s.bind() != STB_LOCAL && g)
        f = *g;
      nodes.push_back(f && !f->removed && is_live_function(ctx, *obj, i) ? f : nullptr);
    }
  std::unordered_map<const OutputSymbol *, size_t> number;
  for (size_t i = 0; i < nodes.size(); i++)
    if (nodes[i])
      number.emplace(nodes[i], i + 1);

  auto node_of = [&](const OutputSymbol *f) {
    auto n = number.find(f);
    return n == number.end() ? 0 : n->second;
  };

  std::unordered_map<const OutputSymbol *, u32> regs;
  for (const OutputSection *sec : out.sections)
    if (sec->kind == SectionKind::ModuleInfo)
      for (const InfoRecord &r : sec->records)
        if (r.attr == EIATTR_REGCOUNT && r.sym && r.payload.size() >= 8)
          regs[r.sym] = read_le<u32>(r.payload.data() + 4);

  CalleeMap callees = direct_callees(ctx);
  std::vector<std::pair<OutputSymbol *, std::string_view>> taken(out.address_taken);
  std::stable_sort(taken.begin(), taken.end(), [&](const auto &a, const auto &b) {
    return node_of(a.first) < node_of(b.first);
  });
  for (auto site = out.indirect_calls.rbegin(); site != out.indirect_calls.rend(); ++site)
    if (site->first)
      for (const auto &[target, target_proto] : taken)
        if (target && target_proto == site->second)
          callees.emplace(site->first, target);

  // The numbers printed after "->": the call edges in order, those to a
  // removed callee (a kept address-taken function's callees, dead_code.h)
  // included with the removed node's number, then the indirect targets.
  std::multimap<const OutputSymbol *, size_t> printed;
  for (size_t i = 0; i < out.call_edges.size(); i++) {
    const auto &[caller, callee] = out.call_edges[i];
    if (!caller)
      continue;
    if (auto d = out.dead_call_edges.find(i); d != out.dead_call_edges.end()) {
      const InputObject &obj = *ctx.inputs[d->second.first];
      const ElfSymbol &s = obj.symbols[d->second.second];
      size_t n = 0;
      if (s.bind() == STB_LOCAL) {
        if (auto l = local_node.find(d->second); l != local_node.end())
          n = l->second;
      } else if (auto g = global_node.find(s.name); g != global_node.end()) {
        n = g->second;
      }
      if (n)
        printed.emplace(caller, n);
    } else if (callee) {
      if (size_t n = node_of(callee))
        printed.emplace(caller, n);
    }
  }
  for (auto site = out.indirect_calls.rbegin(); site != out.indirect_calls.rend(); ++site)
    if (site->first)
      for (const auto &[target, target_proto] : taken)
        if (target && target_proto == site->second)
          if (size_t n = node_of(target))
            printed.emplace(site->first, n);

  // (The target without its a/f suffix.)
  std::string text = fmt::format("callgraph for sm_{}:\n", ctx.arch.sm);
  text += "# A: s -> B // s (number A) potentially calls B\n"
          "# s [N]     // s uses N registers\n"
          "# ^s        // s is entry point\n"
          "# &s        // s has address taken\n";
  for (size_t i = 0; i < nodes.size(); i++) {
    const OutputSymbol *f = nodes[i];
    text += fmt::format("{}: ", i + 1);
    if (!f) {
      text += '\n';
      continue;
    }
    // (-kernels-used: a kernel kept only because its address is taken is
    // no entry point here, when exactly one kernel is kept.)
    if (f->is_entry() && !f->pruned_entry &&
        (filter.mode != KernelFilter::Mode::KernelsUsed || filter.keeps(f->name) || ctx.kept_kernel_count != 1))
      text += '^';
    if (out.address_taken_syms.count(f))
      text += '&';
    text += display_name(f->name);
    if (auto r = regs.find(f); r != regs.end())
      text += fmt::format(" [{}]", r->second);
    text += " ->";
    auto [first, last] = printed.equal_range(f);
    for (auto it = std::make_reverse_iterator(last); it != std::make_reverse_iterator(first); ++it)
      text += fmt::format(" {}", it->second);
    text += '\n';
  }

  // Register propagation, in nvlink's order.
  std::vector<const OutputSymbol *> kernels, defined;
  for (const OutputSymbol *f : nodes)
    if (f && f->defined()) {
      defined.push_back(f);
      if (f->is_entry())
        kernels.push_back(f);
    }
  std::reverse(kernels.begin(), kernels.end());
  std::stable_sort(defined.begin(), defined.end(),
                   [](const OutputSymbol *a, const OutputSymbol *b) { return a->def_order < b->def_order; });
  std::unordered_map<const OutputSymbol *, std::set<const OutputSymbol *>> reach;
  for (const OutputSymbol *k : kernels)
    reach[k] = reached_from(k, callees);
  std::unordered_map<const OutputSymbol *, u32> current;
  for (const OutputSymbol *k : kernels)
    current[k] = regs.count(k) ? regs.at(k) : 0;
  for (const OutputSymbol *f : defined) {
    auto r = regs.find(f);
    if (r == regs.end())
      continue;
    for (const OutputSymbol *k : kernels) {
      if (k == f || !reach[k].count(f) || current[k] >= r->second)
        continue;
      current[k] = r->second;
      text += fmt::format("regcount {} for {} propagated to entry {}\n", r->second, display_name(f->name),
                          display_name(k->name));
    }
  }
  return text;
}

} // namespace dlink
