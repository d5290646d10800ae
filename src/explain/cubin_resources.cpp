// Per-function resources of a cubin (cubin_resources.h).
#include "explain/cubin_resources.h"

#include "dlink/eiattr.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

namespace dlink {

namespace {

// ".nv.constant3" -> 3, ".nv.constant0.k" -> 0 (and the suffix), else none.
std::optional<u32> bank_number(std::string_view name, std::string_view *suffix) {
  constexpr std::string_view kPrefix = ".nv.constant";
  if (!name.starts_with(kPrefix))
    return std::nullopt;
  std::string_view rest = name.substr(kPrefix.size());
  size_t dot = rest.find('.');
  std::string_view digits = rest.substr(0, dot);
  u32 n = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (digits.empty() || ec != std::errc() || p != digits.data() + digits.size())
    return std::nullopt;
  *suffix = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
  return n;
}

std::array<u32, 3> three(const EiRecord &r) {
  return {r.payload_u32(0), r.payload_u32(1), r.payload_u32(2)};
}

// A record of a function's own .nv.info.<f> section.
void apply_function_record(FunctionResources &owner, const EiRecord &r) {
  bool sval = r.format == EIFMT_SVAL;
  switch (r.attr) {
  case EIATTR_NUM_BARRIERS:
    owner.barriers = sval && r.payload.size() >= 4 ? r.payload_u32(0) : r.value;
    break;
  case EIATTR_MAX_THREADS:
    if (sval && r.payload.size() >= 12)
      owner.max_threads = three(r);
    break;
  case EIATTR_REQNTID:
    if (sval && r.payload.size() >= 12)
      owner.reqntid = three(r);
    break;
  case EIATTR_MAXREG_COUNT:
    owner.max_registers = sval && r.payload.size() >= 4 ? r.payload_u32(0) : r.value;
    break;
  case EIATTR_CBANK_PARAM_SIZE:
    owner.param_bytes = sval && r.payload.size() >= 4 ? r.payload_u32(0) : r.value;
    break;
  default:
    break;
  }
}

} // namespace

CubinResources analyze_cubin_resources(const ElfFile &file) {
  CubinResources res;
  res.sm = (file.flags >> 8) & 0xff;
  res.executable = file.type == ET_EXEC;
  std::vector<ElfSymbol> syms;
  for (const ElfSection &sec : file.sections)
    if (sec.type == SHT_SYMTAB && sec.name == ".symtab") {
      try {
        syms = read_symbols(file, sec);
      } catch (const std::exception &e) {
        res.notes.push_back(fmt::format("symbol table not decoded: {}", e.what()));
      }
    }
  std::unordered_map<u32, size_t> by_symbol;
  std::unordered_map<std::string_view, size_t> by_name;
  for (u32 i = 1; i < syms.size(); i++) {
    const ElfSymbol &s = syms[i];
    if (s.type() != STT_FUNC || s.shndx == SHN_UNDEF)
      continue;
    FunctionResources f;
    f.name = std::string(s.name);
    f.symbol = i;
    f.kernel = (s.other & STO_CUDA_ENTRY) != 0;
    by_symbol[i] = res.functions.size();
    by_name.emplace(s.name, res.functions.size());
    res.functions.push_back(std::move(f));
  }
  auto function_at = [&](u32 sym) -> FunctionResources * {
    auto it = by_symbol.find(sym);
    return it == by_symbol.end() ? nullptr : &res.functions[it->second];
  };
  auto name_of = [&](u32 sym) -> std::string {
    return sym < syms.size() ? std::string(syms[sym].name) : fmt::format("<symbol {}>", sym);
  };

  for (u32 si = 0; si < file.sections.size(); si++) {
    const ElfSection &sec = file.sections[si];
    std::string_view suffix;
    if (sec.type == SHT_CUDA_INFO || sec.name.starts_with(".nv.info")) {
      if (sec.name.starts_with(".nv.merc."))
        continue;
      std::vector<EiRecord> records;
      try {
        records = parse_eiattrs(sec.data);
      } catch (const std::exception &e) {
        res.notes.push_back(fmt::format("{} not decoded: {}", sec.name, e.what()));
        continue;
      }
      // .nv.info.<f>: records of function <f> (sh_info: its .text section).
      FunctionResources *owner = nullptr;
      if (sec.name.size() > 9 && sec.name.starts_with(".nv.info.")) {
        auto it = by_name.find(sec.name.substr(9));
        if (it != by_name.end())
          owner = &res.functions[it->second];
      }
      for (const EiRecord &r : records) {
        bool sval = r.format == EIFMT_SVAL;
        if (!owner) {
          // Module records: symbol index, then a value.
          if (!sval || r.payload.size() < 8)
            continue;
          FunctionResources *f = function_at(r.payload_u32(0));
          if (!f)
            continue;
          u32 v = r.payload_u32(1);
          switch (r.attr) {
          case EIATTR_REGCOUNT: f->registers = v; break;
          case EIATTR_FRAME_SIZE: f->frame = v; break;
          case EIATTR_MIN_STACK_SIZE: f->stack = v; break;
          case EIATTR_MAX_STACK_SIZE:
            if (!f->stack || !res.executable)
              f->stack = v;
            break;
          default: break;
          }
          continue;
        }
        apply_function_record(*owner, r);
      }
    } else if (sec.name.starts_with(".nv.shared.") && !sec.name.starts_with(".nv.shared.reserved.")) {
      auto it = by_name.find(sec.name.substr(11));
      if (it != by_name.end())
        res.functions[it->second].shared_static = sec.size;
    } else if (auto n = bank_number(sec.name, &suffix)) {
      if (suffix.empty()) {
        res.module_constant_banks.emplace_back(*n, sec.size);
      } else if (auto it = by_name.find(suffix); it != by_name.end()) {
        res.functions[it->second].constant_banks.emplace_back(*n, sec.size);
      }
    } else if (sec.name == ".nv.global" || sec.name == ".nv.global.init") {
      res.global_bytes += sec.size;
    } else if (sec.type == SHT_CUDA_CALLGRAPH && !sec.name.starts_with(".nv.merc.")) {
      // Block 1: caller -> callee. Blocks 2 and 3: address-taken functions
      // and indirect call sites, each with its prototype (a string offset):
      // an indirect call may reach every address-taken function of its
      // prototype, and nvlink counts those for the stack too. (Block 4 is
      // not a call relation.)
      std::vector<std::pair<u32, u32>> taken, sites;
      auto add_edge = [&](u32 caller, u32 callee) {
        if (FunctionResources *f = function_at(caller)) {
          std::string name = name_of(callee);
          if (std::find(f->callees.begin(), f->callees.end(), name) == f->callees.end())
            f->callees.push_back(std::move(name));
        }
      };
      int block = 0;
      for (size_t k = 0; k + 8 <= sec.data.size(); k += 8) {
        u32 a = read_le<u32>(&sec.data[k]);
        i32 b = read_le<i32>(&sec.data[k + 4]);
        if (a == 0 && b < 0 && b >= -4) {
          block = -b;
          continue;
        }
        if (block == 1)
          add_edge(a, static_cast<u32>(b));
        else if (block == 2)
          taken.emplace_back(a, static_cast<u32>(b));
        else if (block == 3)
          sites.emplace_back(a, static_cast<u32>(b));
      }
      for (auto [caller, proto] : sites)
        for (auto [target, target_proto] : taken)
          if (proto == target_proto)
            add_edge(caller, target);
    }
  }
  for (FunctionResources &f : res.functions)
    std::sort(f.constant_banks.begin(), f.constant_banks.end());
  std::sort(res.module_constant_banks.begin(), res.module_constant_banks.end());
  return res;
}

// Computed once for the whole graph: per function, whether a call cycle is
// reachable from it and, below the acyclic ones, the deepest frame sum and
// the callee that gives it (the first callee in call-graph order on ties).
StackAnalysis::StackAnalysis(const CubinResources &res) : res_(res) {
  const size_t n = res.functions.size();
  std::unordered_map<std::string_view, size_t> index;
  for (size_t i = 0; i < n; i++)
    index.emplace(res.functions[i].name, i);
  std::vector<std::vector<size_t>> callees(n);
  for (size_t i = 0; i < n; i++)
    for (const std::string &c : res.functions[i].callees)
      if (auto it = index.find(c); it != index.end())
        callees[i].push_back(it->second);
  enum : u8 { Unseen, Open, Acyclic, Cyclic };
  std::vector<u8> mark(n, Unseen);
  cyclic_.assign(n, false);
  deepest_.assign(n, 0);
  next_.assign(n, kNone);
  std::function<void(size_t)> visit = [&](size_t f) {
    mark[f] = Open;
    bool cyclic = false;
    u64 deepest = 0;
    size_t next = kNone;
    for (size_t g : callees[f]) {
      if (mark[g] == Unseen)
        visit(g);
      if (mark[g] == Open || mark[g] == Cyclic) {
        cyclic = true;
        continue;
      }
      if (next == kNone || deepest_[g] > deepest) {
        deepest = deepest_[g];
        next = g;
      }
    }
    mark[f] = cyclic ? Cyclic : Acyclic;
    cyclic_[f] = cyclic;
    deepest_[f] = res_.functions[f].frame + deepest;
    next_[f] = next;
  };
  for (size_t i = 0; i < n; i++)
    if (mark[i] == Unseen)
      visit(i);
}

size_t StackAnalysis::index_of(const FunctionResources &f) const {
  return static_cast<size_t>(&f - res_.functions.data());
}

bool StackAnalysis::recursive(const FunctionResources &f) const { return cyclic_[index_of(f)]; }

std::vector<StackStep> StackAnalysis::deepest_path(const FunctionResources &kernel) const {
  size_t k = index_of(kernel);
  if (cyclic_[k] || (kernel.stack && *kernel.stack != deepest_[k]))
    return {};
  std::vector<StackStep> path;
  for (size_t f = k; f != kNone; f = next_[f])
    path.push_back({res_.functions[f].name, res_.functions[f].frame});
  return path;
}

bool reaches_recursion(const CubinResources &res, const FunctionResources &f) {
  return StackAnalysis(res).recursive(f);
}

std::vector<StackStep> deepest_stack_path(const CubinResources &res, const FunctionResources &kernel) {
  return StackAnalysis(res).deepest_path(kernel);
}

std::string format_res_usage(const CubinResources &res) {
  std::string out = "Resource usage:\n Common:\n";
  out += fmt::format("  GLOBAL:{}", res.global_bytes);
  for (auto [n, size] : res.module_constant_banks)
    out += fmt::format(" CONSTANT[{}]:{}", n, size);
  out += "\n";
  for (const FunctionResources &f : res.functions) {
    out += fmt::format(" Function {}:\n", f.name);
    std::string stack = !f.stack ? "0" : *f.stack == 0xffffffffu ? "unknown" : std::to_string(*f.stack);
    out += fmt::format("  REG:{} STACK:{} SHARED:{} LOCAL:{}", f.registers, stack, f.shared_static,
                       f.frame);
    for (auto [n, size] : f.constant_banks)
      out += fmt::format(" CONSTANT[{}]:{}", n, size);
    out += fmt::format(" BARRIERS:{}", f.barriers);
    if (f.max_threads)
      out += fmt::format(" MAX_THREADS:{}", (*f.max_threads)[0] * (*f.max_threads)[1] * (*f.max_threads)[2]);
    if (f.max_registers)
      out += fmt::format(" MAXREG:{}", *f.max_registers);
    out += "\n";
  }
  for (const std::string &n : res.notes)
    out += fmt::format(" note: {}\n", n);
  return out;
}

} // namespace dlink
