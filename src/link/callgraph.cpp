// The merge stage (merge.h): the call graph and the prototypes.
#include "link/input_merger.h"
#include "merge.h"

#include "dlink/demangle.h"
#include "dlink/reloc_types.h"

#include "dead_code.h"
#include "elf/dwarf_frame.h"
#include "output_model.h"
#include "relocatable.h"
#include "validate.h"

#include <algorithm>

namespace dlink {

void InputMerger::merge_callgraph(const ElfSection &in) {
  OutputModel &out = ctx_.out;
  const ElfSection &strtab = obj_.elf.sections.at(obj_.elf.find_section(".strtab").value_or(0));
  for_each_call_entry(in, true, [&](i64 block, u32 a, i32 b) {
    switch (block) {
    case 1:
      // A weak copy replaced by a later input's keeps its edges (caller
      // the kept definition); a later copy that lost adds none (§15.6).
      if (a < obj_.symbols.size() && is_live_function(ctx_, obj_, a) &&
          (!discarded_[a] || (winner_elsewhere_.count(a) && weak_copy_held(ctx_, obj_, obj_.symbols[a])))) {
        // A kept address-taken function may call functions that did not
        // survive (dead_code.h): the edge leaves .nv.callgraph but
        // -dump-callgraph still lists it.
        if (static_cast<u32>(b) < obj_.symbols.size() && !is_live_function(ctx_, obj_, static_cast<u32>(b)))
          out.dead_call_edges.emplace(out.call_edges.size(), std::pair{obj_.index, static_cast<u32>(b)});
        out.call_edges.emplace_back(mapped_symbol(a), mapped_symbol(static_cast<u32>(b)));
      }
      break;
    case 2: {
      // Address-taken functions are listed once.
      OutputSymbol *f = mapped_symbol(a);
      if (out.address_taken_syms.insert(f).second)
        out.address_taken.emplace_back(f, string_at(strtab, static_cast<u32>(b)));
      break;
    }
    // (Indirect call sites of removed functions go: dead code and kernels
    // pruned by -kernels-used alike.)
    // A weak function's indirect call sites and their targets come only
    // from the copies that held the definition when their input was merged
    // (as its edges): a later copy that lost adds none.
    case 3:
      if (a < obj_.symbols.size() && is_live_function(ctx_, obj_, a) &&
          weak_copy_held(ctx_, obj_, obj_.symbols[a]))
        out.indirect_calls.emplace_back(mapped_symbol(a),
                                        ctx_.arena.save(string_at(strtab, static_cast<u32>(b))));
      break;
    case 4:
      if (a < obj_.symbols.size() && is_live_function(ctx_, obj_, a) &&
          weak_copy_held(ctx_, obj_, obj_.symbols[a]))
        out.indirect_targets.emplace_back(mapped_symbol(a), mapped_symbol(static_cast<u32>(b)));
      break;
    default:
      break;
    }
  });
}

void InputMerger::merge_prototypes(const ElfSection &in) {
  OutputModel &out = ctx_.out;
  const ElfSection &strtab = obj_.elf.sections.at(in.link < obj_.elf.sections.size()
                                                      ? obj_.elf.sections[in.link].link
                                                      : 0);
  for (size_t k = 0; k + 8 <= in.data.size(); k += 8) {
    u32 index = read_le<u32>(in.data.data() + k);
    if (index < obj_.symbols.size() && !is_live_function(ctx_, obj_, index))
      continue;
    OutputSymbol *sym = mapped_symbol(index);
    std::string_view proto = string_at(strtab, read_le<u32>(in.data.data() + k + 4));
    // Every input's prototype of a symbol must be the first one seen
    // (measured: one error per disagreeing input, naming the definer once
    // one is known, else the first input that mentioned the symbol).
    // (first_prototype holds the symbols prototype_syms would, the null
    // one aside: one lookup for both.)
    bool first_time;
    if (sym) {
      auto [first, fresh] = out.first_prototype.try_emplace(sym, proto);
      first_time = fresh;
      if (!fresh && first->second != proto) {
        const InputObject *named = sym->defined_in ? sym->defined_in : sym->first_referenced_in;
        ctx_.diag.error(fmt::format("Prototype doesn't match for '{}' in '{}', first defined in '{}'",
                                    sym->name, obj_.name, named ? named->name : obj_.name));
        multiple_definition_ = true;
      }
    } else {
      first_time = out.prototype_syms.insert(sym).second;
    }
    if (first_time)
      out.prototypes.emplace_back(sym, ctx_.arena.save(proto)); // (not a view of the input)
  }
}

// Prototype strings go first in .strtab, in order of first appearance.
void collect_prototype_strings(Context &ctx) {
  auto &list = ctx.out.prototype_strings;
  // (An empty signature is interned too: it adds a second NUL to .strtab.)
  // (Kept in the arena, not in the input's string table: the inputs' pages
  // are released after the merge, release_input_pages.)
  auto intern = [&](std::string_view s) {
    if (std::find(list.begin(), list.end(), s) == list.end())
      list.push_back(ctx.arena.save(s));
  };
  // Every signature string of every input, in section order: the call
  // graph's address-taken and indirect-call blocks, then .nv.prototype;
  // even those of functions dead-code elimination removes (nvlink interns
  // them while reading the inputs).
  for (InputObject *obj : ctx.inputs) {
    for (const ElfSection &sec : obj->elf.sections) {
      bool callgraph = sec.type == SHT_CUDA_CALLGRAPH;
      if ((!callgraph && sec.type != SHT_CUDA_PROTOTYPE) || sec.link >= obj->elf.sections.size())
        continue;
      const ElfSection &strtab = obj->elf.sections[obj->elf.sections[sec.link].link];
      for_each_call_entry(sec, callgraph, [&](i64 block, u32, i32 b) {
        if (!callgraph || block == 2 || block == 3)
          intern(string_at(strtab, static_cast<u32>(b)));
      });
    }
  }
}

} // namespace dlink
