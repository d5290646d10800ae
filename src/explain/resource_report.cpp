// --resource-report=FILE: per-kernel resources as JSON
// (docs/explain-resource-report.md, schema docs/resource-report.schema.json).
//
// The figures are read back from the image the link built
// (cubin_resources.h), so they are what the CUDA driver will see; the link
// adds what only it knows: which inputs contributed each kernel's code and
// whether a kernel uses dynamic shared memory.
#include "explain/cubin_resources.h"
#include "arch_format.h"
#include "explain/explain.h"

#include "dlink/demangle.h"
#include "layout.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

namespace dlink {

namespace {

std::string json_list(const std::vector<std::string> &items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); i++)
    out += (i ? ", " : "") + json_string(items[i]);
  return out + "]";
}

std::string json_dim(const std::optional<std::array<u32, 3>> &d) {
  return d ? fmt::format("[{}, {}, {}]", (*d)[0], (*d)[1], (*d)[2]) : "null";
}

std::string demangled_or_null(std::string_view name) {
  std::optional<std::string> d = demangle(name);
  return d && *d != name ? json_string(*d) : "null";
}

} // namespace

std::string describe_resources(const Context &ctx, const LinkOutcome &outcome) {
  const bool image = outcome.image_built && ctx.output_elf.sections.size() > 1;
  std::string out = "{\n";
  out += "  \"format\": \"dlink-resource-report\",\n";
  out += "  \"version\": 1,\n";
  out += fmt::format("  \"output\": {},\n", json_string(ctx.opts.output_file));
  out += fmt::format("  \"link_status\": \"{}\",\n", outcome.linked() ? "linked" : "failed");
  out += "  \"arches\": [\n";
  out += "    {\n";
  out += fmt::format("      \"arch\": {},\n", json_string(ctx.opts.arch_string));
  if (!image) {
    out += "      \"note\": \"the link stopped before the image was built: no resource figures\",\n";
    out += "      \"global_bytes\": null,\n      \"module_constant_banks\": [],\n      \"kernels\": []\n";
    out += "    }\n  ]\n}\n";
    return out;
  }
  CubinResources res = analyze_cubin_resources(ctx.output_elf);
  // Link knowledge by output symbol index / section name.
  std::unordered_map<u32, const OutputSymbol *> sym_at;
  for (const auto *list : {&ctx.out.locals, &ctx.out.globals, &ctx.out.late_locals})
    for (const OutputSymbol *s : *list)
      if (!s->removed && s->index)
        sym_at[s->index] = s;
  std::unordered_map<std::string_view, const OutputSection *> section_named;
  for (const OutputSection *s : ctx.out.sections)
    if (!s->removed)
      section_named[s->name] = s;
  std::unordered_map<std::string_view, const FunctionResources *> fn;
  for (const FunctionResources &f : res.functions)
    fn[f.name] = &f;
  const u64 reserved = arch_format(ctx.arch).short_resource_report ? reserved_shared_bytes(ctx) : 0;
  const StackAnalysis stacks(res);

  out += fmt::format("      \"global_bytes\": {},\n", res.global_bytes);
  out += "      \"module_constant_banks\": [";
  for (size_t i = 0; i < res.module_constant_banks.size(); i++)
    out += fmt::format("{}{{\"bank\": {}, \"bytes\": {}}}", i ? ", " : "", res.module_constant_banks[i].first,
                       res.module_constant_banks[i].second);
  out += "],\n";
  out += "      \"kernels\": [";
  bool first = true;
  for (const FunctionResources &k : res.functions) {
    if (!k.kernel)
      continue;
    // Every function the kernel reaches, and the inputs that defined them.
    std::vector<std::string> reachable;
    std::set<std::string> inputs;
    std::set<std::string_view> seen;
    std::function<void(const FunctionResources *)> visit = [&](const FunctionResources *f) {
      if (!seen.insert(f->name).second)
        return;
      if (f != &k)
        reachable.push_back(f->name);
      auto s = sym_at.find(f->symbol);
      if (s != sym_at.end() && s->second->name == f->name && s->second->defined_in)
        inputs.insert(s->second->defined_in->name);
      for (const std::string &c : f->callees)
        if (auto g = fn.find(c); g != fn.end())
          visit(g->second);
    };
    visit(&k);
    const bool recursive = stacks.recursive(k);
    std::vector<StackStep> path = stacks.deepest_path(k);
    const OutputSection *shared = nullptr;
    if (auto it = section_named.find(".nv.shared." + k.name); it != section_named.end())
      shared = it->second;

    out += first ? "\n" : ",\n";
    first = false;
    out += "        {\n";
    out += fmt::format("          \"name\": {},\n", json_string(k.name));
    out += fmt::format("          \"demangled\": {},\n", demangled_or_null(k.name));
    out += fmt::format("          \"registers\": {},\n", k.registers);
    out += fmt::format("          \"max_registers\": {},\n", k.max_registers ? std::to_string(*k.max_registers) : "null");
    out += fmt::format("          \"shared_static_bytes\": {},\n", k.shared_static);
    out += fmt::format("          \"shared_reserved_bytes\": {},\n", shared ? std::min(reserved, k.shared_static) : 0);
    out += fmt::format("          \"dynamic_shared\": {},\n", shared && shared->uses_dynamic_shared ? "true" : "false");
    out += fmt::format("          \"local_frame_bytes\": {},\n", k.frame);
    bool known = k.stack && *k.stack != 0xffffffffu;
    out += fmt::format("          \"max_stack_bytes\": {},\n", known ? std::to_string(*k.stack) : "null");
    out += "          \"max_stack_path\": ";
    if (path.empty()) {
      out += "null,\n";
    } else {
      out += "[";
      for (size_t i = 0; i < path.size(); i++)
        out += fmt::format("{}{{\"function\": {}, \"frame_bytes\": {}}}", i ? ", " : "",
                           json_string(path[i].function), path[i].frame);
      out += "],\n";
    }
    out += "          \"constant_banks\": [";
    for (size_t i = 0; i < k.constant_banks.size(); i++)
      out += fmt::format("{}{{\"bank\": {}, \"bytes\": {}}}", i ? ", " : "", k.constant_banks[i].first,
                         k.constant_banks[i].second);
    out += "],\n";
    out += fmt::format("          \"param_bytes\": {},\n", k.param_bytes ? std::to_string(*k.param_bytes) : "null");
    out += fmt::format("          \"barriers\": {},\n", k.barriers);
    out += fmt::format("          \"max_threads\": {},\n", json_dim(k.max_threads));
    out += fmt::format("          \"required_threads\": {},\n", json_dim(k.reqntid));
    out += "          \"min_blocks\": null,\n";
    out += fmt::format("          \"recursive\": {},\n", recursive ? "true" : "false");
    out += fmt::format("          \"callees\": {},\n", json_list(k.callees));
    out += fmt::format("          \"reachable_functions\": {},\n", json_list(reachable));
    out += fmt::format("          \"inputs\": {}\n", json_list({inputs.begin(), inputs.end()}));
    out += "        }";
  }
  out += first ? "]\n" : "\n      ]\n";
  out += "    }\n  ]\n}\n";
  return out;
}

} // namespace dlink
