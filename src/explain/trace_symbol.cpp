// --trace-symbol=NAME / -y NAME (docs/explain-trace-symbol.md): every input
// that defines or references NAME, in link order, with binding, type and
// size, then which definition the link kept. NAME is a symbol name as in
// the cubins (mangled) or its demangled form. Lines go to stdout, like
// lld's: "<input>: definition of NAME ..." / "<input>: reference to NAME".
#include "explain/explain.h"

#include "dead_code.h"
#include "dlink/demangle.h"

#include "elf/cubin_text.h"

#include <fmt/format.h>

namespace dlink {

namespace {

bool matches(std::string_view symbol, std::string_view name) {
  if (symbol == name)
    return true;
  if (!symbol.starts_with("_Z") || name.starts_with("_Z")) // (a mangled NAME matches exactly)
    return false;
  std::optional<std::string> d = demangle(symbol);
  return d && *d == name;
}

} // namespace

std::string describe_symbol_traces(const Context &ctx, const std::vector<std::string> &names,
                                   std::vector<std::string> &unknown) {
  std::string out;
  for (const std::string &name : names) {
    std::string block;
    std::string_view mangled;
    for (const InputObject *obj : ctx.inputs) {
      for (u32 i = 1; i < obj->symbols.size(); i++) {
        const ElfSymbol &s = obj->symbols[i];
        if (s.type() == STT_SECTION || s.name.empty() || !matches(s.name, name))
          continue;
        mangled = s.name;
        std::string what = fmt::format("{} {}", symbol_bind_name(s.bind()), symbol_type_name(s.type()));
        if (s.shndx == SHN_UNDEF) {
          block += fmt::format("{}: reference to {} ({})\n", obj->name, s.name, what);
          continue;
        }
        std::string notes;
        if (s.type() == STT_FUNC && !is_live_function(ctx, *obj, i))
          notes += "; removed as dead code";
        if (s.bind() == STB_WEAK && s.type() == STT_FUNC) {
          const u32 *winner = ctx.out.weak_winner.find(s.name);
          if (winner && *winner != obj->index)
            notes += fmt::format("; this weak copy lost to #{} {}", *winner,
                                 *winner < ctx.inputs.size() ? ctx.inputs[*winner]->name : "");
        }
        block += fmt::format("{}: definition of {} ({}, size {}){}\n", obj->name, s.name, what, s.size,
                             notes);
      }
    }
    if (block.empty()) {
      unknown.push_back(name);
      continue;
    }
    out += block;
    OutputSymbol *const *g = ctx.out.global_by_name.find(mangled);
    if (!g) {
      out += fmt::format("{}: no global output symbol (local, or removed before the merge)\n", mangled);
    } else if (const OutputSymbol *s = *g; s->removed) {
      out += fmt::format("{}: not in the output (removed)\n", mangled);
    } else if (!s->defined()) {
      out += fmt::format("{}: undefined in the output{}\n", mangled,
                         is_driver_function(s->name) ? " (a function the CUDA driver provides)" : "");
    } else {
      out += fmt::format("{}: definition kept from {}, {} {} at {}+0x{:x}, size {}\n", mangled,
                         s->defined_in ? s->defined_in->name : "?", symbol_bind_name(s->bind),
                         symbol_type_name(s->type), s->section->name, s->value, s->size);
    }
  }
  return out;
}

} // namespace dlink
