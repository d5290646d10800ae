// Stage 2a: dead function elimination (dead_code.h).
//
// Roots are the kernels (STO_CUDA_ENTRY) that survive kernel pruning (see
// kernel_filter below). Edges are the caller -> callee pairs of each input's
// .nv.callgraph (block 1) and, for each indirect call site of a function
// (block 3), every address-taken function of the link (block 2) with the
// site's prototype; global functions are matched by name across inputs,
// local (static) functions only within their own input. Address-taken
// functions always survive (whether or not anything taking their address
// does: nvlink kept a child kernel launched only from a pruned parent), but
// they are no roots: the functions they call survive only if reached some
// other way (probes c1/c4/c7/c8/c9, docs/notes/semantics-findings.md
// "Address-taken functions"). A weak function's edges count only from the
// inputs whose copy held the definition when that input was merged
// (OutputModel::weak_holders): a later copy that loses to an earlier one adds
// no edge, so the local helpers only it calls are dead; a copy replaced later
// keeps its edges (semantics-findings.md §15.6). The result is stored per
// input, per symbol index, in ctx.
#include "dead_code.h"
#include "debug_link.h"

#include "dlink/host_object.h"
#include "dlink/name_hash.h"

#include <algorithm>
#include <deque>
#include <unordered_map>
#include <unordered_set>

namespace dlink {

namespace {

// A function's identity: global name, or (input, name) for local functions.
struct FunctionKey {
  int input = -1; // -1 for global functions
  std::string_view name;
  bool operator==(const FunctionKey &) const = default;
};

struct FunctionKeyHash {
  std::size_t operator()(const FunctionKey &k) const { // (not noexcept: name_hash.h)
    return NameHash{}(k.name) ^ (static_cast<std::size_t>(k.input + 1) * 0x9e3779b97f4a7c15ull);
  }
};

// (Sets, not lists: which functions are reached does not depend on the
// order in which they are found.)
using FunctionSet = std::unordered_set<FunctionKey, FunctionKeyHash>;

FunctionKey key_of(const InputObject &obj, const ElfSymbol &sym) {
  return {sym.bind() == STB_LOCAL ? static_cast<int>(obj.index) : -1, sym.name};
}

} // namespace

KernelFilter kernel_filter(const Context &ctx) {
  KernelFilter f;
  // -g: every kernel stays (-kernels-used and host references ignored);
  // with -suppress-debug-info they are applied, but remove nothing
  // (mode-sweep -- -g -suppress-debug-info: kernels_used, dlink_host_prune).
  if (writes_debug_info(ctx))
    return f;

  if (!ctx.opts.kernels_used.empty() || !ctx.opts.variables_used.empty()) {
    f.mode = KernelFilter::Mode::KernelsUsed;
    for (const std::string &p : ctx.opts.kernels_used)
      f.patterns.push_back("*" + p + "*");
  } else if (!ctx.opts.ignore_host_info && ctx.all_inputs_have_host_refs &&
             ctx.host_refs_list_kernels) {
    f.mode = KernelFilter::Mode::HostReferences;
    for (std::string_view p : ctx.host_kernel_patterns)
      f.patterns.emplace_back(p);
  }
  return f;
}

bool KernelFilter::keeps(std::string_view kernel) const {
  if (mode == Mode::All)
    return true;
  for (const std::string &p : patterns)
    if (host_ref_matches(p, kernel))
      return true;
  return false;
}

bool weak_copy_held(const Context &ctx, const InputObject &obj, const ElfSymbol &sym) {
  if (sym.type() != STT_FUNC || sym.bind() != STB_WEAK || sym.shndx == SHN_UNDEF)
    return true;
  auto it = ctx.out.weak_holders.find(sym.name);
  if (it == ctx.out.weak_holders.end())
    return true;
  return std::find(it->second.begin(), it->second.end(), obj.index) != it->second.end();
}

void mark_unreachable_functions(Context &ctx) {
  for (InputObject *obj : ctx.inputs) {
    if (obj->index >= ctx.reachable_functions.size())
      continue;
    const std::vector<bool> &flags = ctx.reachable_functions[obj->index];
    for (u32 i = 1; i < obj->symbols.size() && i < flags.size() && i < obj->sym_map.size(); i++) {
      OutputSymbol *sym = obj->sym_map[i];
      if (flags[i] || !sym || obj->symbols[i].shndx == SHN_UNDEF)
        continue;
      sym->unreachable = true;
      sym->pruned_entry = sym->is_entry();
    }
  }
}

void find_live_functions(Context &ctx) {
  const KernelFilter filter = kernel_filter(ctx);
  std::unordered_map<FunctionKey, std::vector<FunctionKey>, FunctionKeyHash> edges;
  // Indirect call sites (caller, prototype) and address-taken functions
  // (function, prototype).
  std::vector<std::pair<FunctionKey, std::string_view>> sites, taken;
  std::deque<FunctionKey> work;
  FunctionSet reached;

  // What each input contributes, read from the inputs at once (a corrupt
  // call graph throws; the lowest input's error is the one reported), then
  // gathered in link order.
  struct Contribution {
    std::vector<FunctionKey> kernels, roots;
    std::vector<std::pair<FunctionKey, std::string_view>> taken, sites;
    std::vector<std::pair<FunctionKey, FunctionKey>> edges;
  };
  std::vector<Contribution> from(ctx.inputs.size());
  ctx.par.for_each_index(ctx.inputs.size(), [&](size_t i) {
    const InputObject *obj = ctx.inputs[i];
    Contribution &c = from[i];
    for (const ElfSymbol &s : obj->symbols) {
      if (s.type() != STT_FUNC || s.shndx == SHN_UNDEF || !(s.other & STO_CUDA_ENTRY))
        continue;
      c.kernels.push_back(key_of(*obj, s));
      if (filter.keeps(s.name))
        c.roots.push_back(key_of(*obj, s));
    }
    auto cg = obj->elf.find_section(".nv.callgraph");
    if (!cg)
      return;
    auto strtab_index = obj->elf.find_section(".strtab");
    auto proto = [&](i32 offset) {
      return strtab_index ? string_at(obj->elf.sections[*strtab_index], static_cast<u32>(offset))
                          : std::string_view();
    };
    const ElfSection &sec = obj->elf.sections[*cg];
    for_each_call_entry(sec, true, [&](i64 block, u32 a, i32 b) {
      if (a == 0 || a >= obj->symbols.size())
        return;
      if (block == 2)
        c.taken.emplace_back(key_of(*obj, obj->symbols[a]), proto(b));
      else if (!weak_copy_held(ctx, *obj, obj->symbols[a]))
        return; // a losing weak copy's calls do not count
      else if (block == 3)
        c.sites.emplace_back(key_of(*obj, obj->symbols[a]), proto(b));
      else if (block == 1 && static_cast<u32>(b) < obj->symbols.size())
        c.edges.emplace_back(key_of(*obj, obj->symbols[a]), key_of(*obj, obj->symbols[static_cast<u32>(b)]));
    });
  });
  FunctionSet kernel_keys;
  for (Contribution &c : from) {
    kernel_keys.insert(c.kernels.begin(), c.kernels.end());
    for (const FunctionKey &k : c.roots)
      if (reached.insert(k).second)
        work.push_back(k);
    taken.insert(taken.end(), c.taken.begin(), c.taken.end());
    sites.insert(sites.end(), c.sites.begin(), c.sites.end());
    for (const auto &[caller, callee] : c.edges)
      edges[caller].push_back(callee);
  }
  from.clear();
  // Pruning by host references keeps every kernel whose address is taken
  // (a kernel launched from the device) as a root; -kernels-used only keeps
  // it, like any other address-taken function (probes h2.o and a.o with
  // libcudadevrt: f called by child kernel kc survives only in the first),
  // when it keeps exactly one kernel: with none or several, such kernels are
  // roots again (probe c3.cu: kc's callee fb stays with -kernels-used=k0,k1
  // or =zzz, goes with =k0; docs/notes/inputs.md §10).
  ctx.kept_kernel_count = reached.size();
  if (filter.mode == KernelFilter::Mode::HostReferences ||
      (filter.mode == KernelFilter::Mode::KernelsUsed && ctx.kept_kernel_count != 1))
    for (const auto &[target, target_proto] : taken)
      if (kernel_keys.count(target) && reached.insert(target).second)
        work.push_back(target);
  for (const auto &[caller, site_proto] : sites)
    for (const auto &[target, target_proto] : taken)
      if (target_proto == site_proto)
        edges[caller].push_back(target);

  while (!work.empty()) {
    FunctionKey f = work.front();
    work.pop_front();
    auto it = edges.find(f);
    if (it == edges.end())
      continue;
    for (const FunctionKey &callee : it->second)
      if (reached.insert(callee).second)
        work.push_back(callee);
  }
  FunctionSet &live = reached; // (reached is not needed any more)
  for (const auto &[target, target_proto] : taken)
    live.insert(target);

  ctx.live_functions.assign(ctx.inputs.size(), {});
  // -g: no function is removed (nvlink keeps dead ones for the debugger),
  // nor with --preserve-relocs; their flags are kept aside.
  const bool removes = !ctx.opts.debug && !ctx.opts.preserve_relocs;
  std::vector<std::vector<bool>> &into = removes ? ctx.live_functions : ctx.reachable_functions;
  into.assign(ctx.inputs.size(), {});
  ctx.par.for_each_index(ctx.inputs.size(), [&](size_t k) {
    const InputObject *obj = ctx.inputs[k];
    std::vector<bool> flags(obj->symbols.size(), true);
    for (u32 i = 0; i < obj->symbols.size(); i++) {
      const ElfSymbol &s = obj->symbols[i];
      if (s.type() == STT_FUNC)
        flags[i] = live.count(key_of(*obj, s)) > 0;
    }
    into[obj->index] = std::move(flags);
  });
}

bool is_live_function(const Context &ctx, const InputObject &obj, u32 index) {
  if (obj.index >= ctx.live_functions.size())
    return true;
  const auto &flags = ctx.live_functions[obj.index];
  return index >= flags.size() || flags[index];
}

} // namespace dlink
