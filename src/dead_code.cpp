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
#include "dlink/key_index.h"
#include "dlink/name_hash.h"

#include <algorithm>
#include <optional>

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

FunctionKey key_of(const InputObject &obj, const ElfSymbol &sym) {
  return {sym.bind() == STB_LOCAL ? static_cast<int>(obj.index) : -1, sym.name};
}

// A key with its hash, computed where the inputs are read (in parallel).
struct HashedKey {
  FunctionKey key;
  std::size_t hash = 0;
};

HashedKey hashed_key_of(const InputObject &obj, const ElfSymbol &sym) {
  FunctionKey k = key_of(obj, sym);
  return {k, FunctionKeyHash{}(k)};
}

// The functions of the reachability walk numbered as first met (the
// numbers decide nothing: only which functions are reached counts), so the
// walk's edges and marks are vectors.
using FunctionIds = KeyIndex<FunctionKey, FunctionKeyHash>;

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
  // What each input contributes, read from the inputs at once (a corrupt
  // call graph throws; the lowest input's error is the one reported), then
  // gathered in link order.
  struct Contribution {
    std::vector<HashedKey> kernels, roots;
    std::vector<std::pair<HashedKey, std::string_view>> taken, sites;
    std::vector<std::pair<HashedKey, HashedKey>> edges;
  };
  std::vector<Contribution> from(ctx.inputs.size());
  ctx.par.for_each_index(ctx.inputs.size(), [&](size_t i) {
    const InputObject *obj = ctx.inputs[i];
    Contribution &c = from[i];
    for (const ElfSymbol &s : obj->symbols) {
      if (s.type() != STT_FUNC || s.shndx == SHN_UNDEF || !(s.other & STO_CUDA_ENTRY))
        continue;
      c.kernels.push_back(hashed_key_of(*obj, s));
      if (filter.keeps(s.name))
        c.roots.push_back(c.kernels.back());
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
        c.taken.emplace_back(hashed_key_of(*obj, obj->symbols[a]), proto(b));
      else if (!weak_copy_held(ctx, *obj, obj->symbols[a]))
        return; // a losing weak copy's calls do not count
      else if (block == 3)
        c.sites.emplace_back(hashed_key_of(*obj, obj->symbols[a]), proto(b));
      else if (block == 1 && static_cast<u32>(b) < obj->symbols.size())
        c.edges.emplace_back(hashed_key_of(*obj, obj->symbols[a]),
                             hashed_key_of(*obj, obj->symbols[static_cast<u32>(b)]));
    });
  });

  FunctionIds ids;
  std::vector<std::vector<u32>> edges; // callees by caller
  std::vector<char> is_kernel, reached;
  auto id = [&](const HashedKey &k) {
    auto [n, fresh] = ids.intern(k.key, k.hash);
    if (fresh) {
      edges.emplace_back();
      is_kernel.push_back(0);
      reached.push_back(0);
    }
    return n;
  };
  // Indirect call sites (caller, prototype) and address-taken functions
  // (function, prototype).
  std::vector<std::pair<u32, std::string_view>> sites, taken;
  std::vector<u32> work;
  size_t roots = 0;
  for (Contribution &c : from) {
    for (const HashedKey &k : c.kernels)
      is_kernel[id(k)] = 1;
    for (const HashedKey &k : c.roots)
      if (u32 n = id(k); !reached[n]) {
        reached[n] = 1;
        roots++;
        work.push_back(n);
      }
    for (const auto &[k, proto] : c.taken)
      taken.emplace_back(id(k), proto);
    for (const auto &[k, proto] : c.sites)
      sites.emplace_back(id(k), proto);
    for (const auto &[caller, callee] : c.edges) {
      u32 to = id(callee);
      edges[id(caller)].push_back(to);
    }
  }
  from.clear();
  // Pruning by host references keeps every kernel whose address is taken
  // (a kernel launched from the device) as a root; -kernels-used only keeps
  // it, like any other address-taken function (probes h2.o and a.o with
  // libcudadevrt: f called by child kernel kc survives only in the first),
  // when it keeps exactly one kernel: with none or several, such kernels are
  // roots again (probe c3.cu: kc's callee fb stays with -kernels-used=k0,k1
  // or =zzz, goes with =k0; docs/notes/inputs.md §10).
  ctx.kept_kernel_count = roots;
  if (filter.mode == KernelFilter::Mode::HostReferences ||
      (filter.mode == KernelFilter::Mode::KernelsUsed && ctx.kept_kernel_count != 1))
    for (const auto &[target, target_proto] : taken)
      if (is_kernel[target] && !reached[target]) {
        reached[target] = 1;
        work.push_back(target);
      }
  for (const auto &[caller, site_proto] : sites)
    for (const auto &[target, target_proto] : taken)
      if (target_proto == site_proto)
        edges[caller].push_back(target);

  while (!work.empty()) {
    u32 f = work.back();
    work.pop_back();
    for (u32 callee : edges[f])
      if (!reached[callee]) {
        reached[callee] = 1;
        work.push_back(callee);
      }
  }
  std::vector<char> &live = reached; // (reached is not needed any more)
  for (const auto &[target, target_proto] : taken)
    live[target] = 1;

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
      if (s.type() == STT_FUNC) {
        HashedKey key = hashed_key_of(*obj, s);
        std::optional<u32> n = ids.find(key.key, key.hash);
        flags[i] = n && live[*n];
      }
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
