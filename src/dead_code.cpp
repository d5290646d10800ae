// Stage 2a: dead function elimination (dead_code.h).
//
// Roots are the kernels (STO_CUDA_ENTRY) that survive kernel pruning (see
// kernel_filter below) and the functions whose address is taken (call-graph
// block 2, whether or not the function taking it survives: nvlink kept a
// child kernel launched only from a pruned parent). Edges are the
// caller -> callee pairs of each input's .nv.callgraph; global functions are
// matched by name across inputs, local (static) functions only within their
// own input. A weak function's edges count only from the inputs whose copy
// held the definition when that input was merged (OutputModel::weak_holders):
// a later copy that loses to an earlier one adds no edge, so the local
// helpers only it calls are dead; a copy replaced later keeps its edges
// (docs/notes/semantics-findings.md §15.6). The result is stored per input,
// per symbol index, in ctx.
#include "dead_code.h"

#include "dlink/host_object.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace dlink {

namespace {

// A function's identity: global name, or (input, name) for local functions.
struct FunctionKey {
  int input = -1; // -1 for global functions
  std::string_view name;
  auto operator<=>(const FunctionKey &) const = default;
};

FunctionKey key_of(const InputObject &obj, const ElfSymbol &sym) {
  return {sym.bind() == STB_LOCAL ? static_cast<int>(obj.index) : -1, sym.name};
}

} // namespace

KernelFilter kernel_filter(const Context &ctx) {
  KernelFilter f;
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

void find_live_functions(Context &ctx) {
  const KernelFilter filter = kernel_filter(ctx);
  std::map<FunctionKey, std::vector<FunctionKey>> edges;
  std::deque<FunctionKey> work;
  std::set<FunctionKey> live;

  for (const InputObject *obj : ctx.inputs) {
    for (const ElfSymbol &s : obj->symbols)
      if (s.type() == STT_FUNC && s.shndx != SHN_UNDEF && (s.other & STO_CUDA_ENTRY) &&
          filter.keeps(s.name))
        if (live.insert(key_of(*obj, s)).second)
          work.push_back(key_of(*obj, s));
    auto cg = obj->elf.find_section(".nv.callgraph");
    if (!cg)
      continue;
    const ElfSection &sec = obj->elf.sections[*cg];
    int block = 0;
    for (size_t k = 0; k + 8 <= sec.data.size(); k += 8) {
      u32 a = read_le<u32>(sec.data.data() + k);
      i32 b = read_le<i32>(sec.data.data() + k + 4);
      if (a == 0 && b < 0) {
        block = -b;
        continue;
      }
      if (block == 2 && a < obj->symbols.size() && a != 0) {
        // Address-taken functions may be called indirectly: roots too.
        if (live.insert(key_of(*obj, obj->symbols[a])).second)
          work.push_back(key_of(*obj, obj->symbols[a]));
        continue;
      }
      if (block != 1 || a >= obj->symbols.size() || static_cast<u32>(b) >= obj->symbols.size())
        continue;
      if (!weak_copy_held(ctx, *obj, obj->symbols[a]))
        continue;
      edges[key_of(*obj, obj->symbols[a])].push_back(
          key_of(*obj, obj->symbols[static_cast<u32>(b)]));
    }
  }

  while (!work.empty()) {
    FunctionKey f = work.front();
    work.pop_front();
    auto it = edges.find(f);
    if (it == edges.end())
      continue;
    for (const FunctionKey &callee : it->second)
      if (live.insert(callee).second)
        work.push_back(callee);
  }

  ctx.live_functions.assign(ctx.inputs.size(), {});
  for (const InputObject *obj : ctx.inputs) {
    auto &flags = ctx.live_functions[obj->index];
    flags.assign(obj->symbols.size(), true);
    for (u32 i = 0; i < obj->symbols.size(); i++) {
      const ElfSymbol &s = obj->symbols[i];
      if (s.type() == STT_FUNC)
        flags[i] = live.count(key_of(*obj, s)) > 0;
    }
  }
}

bool is_live_function(const Context &ctx, const InputObject &obj, u32 index) {
  if (obj.index >= ctx.live_functions.size())
    return true;
  const auto &flags = ctx.live_functions[obj.index];
  return index >= flags.size() || flags[index];
}

} // namespace dlink
