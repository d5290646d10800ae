// The merge stage (merge.h): constant banks: per-function banks detached
// from the kernels' banks, and the packed .nv.constant3 under kernel pruning.
#include "link/input_merger.h"
#include "merge.h"

#include "dlink/demangle.h"
#include "dlink/reloc_types.h"

#include "dead_code.h"
#include "elf/dwarf_frame.h"
#include "output_model.h"
#include "relocatable.h"
#include "validate.h"

#include "dlink/host_object.h"

#include <algorithm>
#include <unordered_map>

namespace dlink {

OutputSection *InputMerger::detach_function_bank(u32 i) {
  const ElfSection &in = in_section(i);
  auto *bank = ctx_.arena.make<OutputSection>();
  bank->name = ctx_.arena.save(in.name);
  bank->kind = SectionKind::Constant;
  bank->type = in.type;
  bank->flags = in.flags;
  bank->align = std::max<u64>(in.addralign, 1);
  bank->detached = true;
  bank->bank_function = bank->name.substr(bank->name.find('.', 12) + 1);
  if (auto k = defined_function(bank->bank_function)) {
    bank->lost_copy = discarded_[*k];
    bank->superseded_copy = winner_elsewhere_.count(*k) > 0;
    bank->passed_over = passed_over_copy(*k);
    bank->bank_input = &obj_;
    bank->bank_symbol = *k;
    bank->bank_local = obj_.symbols[*k].bind() == STB_LOCAL;
  }
  if (!bank->lost_copy)
    ctx_.out.banked_functions.insert(bank->name);
  bank->data.assign(in.data.begin(), in.data.end());
  bank->size = bank->data.size();
  ctx_.out.function_banks.push_back(bank);
  sec_map_[i] = bank;
  sec_off_[i] = 0;
  return bank;
}

void InputMerger::note_constant_chunk(OutputSection *out, const ElfSection &in, u64 offset, u64 align) {
  auto &bank = ctx_.out.constant_bank;
  if (bank.section != out) { // (one bank: the first chunk creates it)
    bank.section = out;
    bank.chunks.clear();
    bank.size = 0;
  }
  OutputModel::ConstantChunk c{offset, in.data.size(), 0, true, in.data};
  const bool later = !bank.chunks.empty();
  const bool dedups = later && constant_bank_dedups(in.data.size(), align);
  if (dedups)
    for (const auto &e : bank.chunks)
      if (e.size == c.size && std::equal(e.input.begin(), e.input.end(), in.data.begin()) && e.packed % align == 0) {
        c.packed = e.packed;
        c.own_bytes = false;
        bank.shared = true;
        break;
      }
  if (c.own_bytes) {
    c.packed = align_to(bank.size, align);
    bank.size = c.packed + c.size;
    if (dedups) {
      ctx_.out.null_symbol_value = c.packed;
      bank.sets_null_symbol = true;
    }
  }
  bank.chunks.push_back(c);
}

bool constant_bank_dedups(u64 size, u64 align) {
  // Measured with one variable of every size 1-80 bytes at alignments 1, 2,
  // 4, 8 and 16 (and 4-byte-aligned sizes up to 280, some up to 16384):
  // only these.
  switch (size) {
  case 12: case 16: case 20: case 24: case 32: case 48: case 64:
    return true;
  case 4: case 8:
    return align >= size;
  default:
    return false;
  }
}

void pack_constant_bank(Context &ctx) {
  auto &bank = ctx.out.constant_bank;
  if (!bank.section || !bank.shared)
    return;
  OutputSection *sec = bank.section;
  std::vector<u8> packed(bank.size, 0);
  for (const auto &c : bank.chunks)
    if (c.own_bytes && c.offset + c.size <= sec->data.size())
      std::copy_n(sec->data.begin() + static_cast<std::ptrdiff_t>(c.offset), c.size,
                  packed.begin() + static_cast<std::ptrdiff_t>(c.packed));
  sec->data = std::move(packed);
  sec->size = sec->data.size();
}

} // namespace dlink

namespace dlink {

namespace {

constexpr u64 kMaxConstantBank = 0x10000;

// nvlink's alignment for a __constant__ variable it lays out again: its size
// up to 8 bytes (3, 5, 6 and 7 included), 8 above; the declared alignment
// plays no part (measured: docs/notes/diagnostics.md "Constant bank laid
// out again").
u64 relayout_alignment(u64 size) { return size < 8 ? size : 8; }

// Whether a goes before b: larger alignment first, then smaller size.
bool relayout_before_or_tie(const OutputSymbol *a, const OutputSymbol *b) {
  // (A local variable sorts as if its alignment were 0: after the others,
  // the locals by size.)
  auto key = [](const OutputSymbol *s) {
    return s->bind == STB_LOCAL ? 0 : relayout_alignment(s->size);
  };
  u64 fa = key(a), fb = key(b);
  if (fa != fb)
    return fa > fb;
  return a->size <= b->size;
}

// nvlink's list merge sort, ties included: the list is dealt alternately
// (first element to the first half) onto the front of two lists, each is
// sorted, and the merge takes from the first list on ties. Measured with up
// to 14 variables of equal sizes (the permutation is not stable) and 58
// random mixes, sm_75-sm_120.
std::vector<OutputSymbol *> relayout_sort(const std::vector<OutputSymbol *> &list) {
  if (list.size() <= 1)
    return list;
  std::vector<OutputSymbol *> a, b;
  for (size_t i = 0; i < list.size(); i++)
    (i % 2 == 0 ? a : b).insert((i % 2 == 0 ? a : b).begin(), list[i]);
  a = relayout_sort(a);
  b = relayout_sort(b);
  std::vector<OutputSymbol *> out;
  out.reserve(list.size());
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size())
    out.push_back(relayout_before_or_tie(a[i], b[j]) ? a[i++] : b[j++]);
  out.insert(out.end(), a.begin() + static_cast<std::ptrdiff_t>(i), a.end());
  out.insert(out.end(), b.begin() + static_cast<std::ptrdiff_t>(j), b.end());
  return out;
}

struct Placed {
  OutputSymbol *sym;
  u64 old_offset;
  u64 new_offset;
};

// The variable whose bytes hold `offset` (old layout), if any.
const Placed *variable_at(const std::vector<Placed> &vars, u64 offset) {
  for (const Placed &p : vars)
    if (offset >= p.old_offset && offset < p.old_offset + p.sym->size)
      return &p;
  return nullptr;
}

bool variables_used_names(const Context &ctx, std::string_view name) {
  for (const std::string &p : ctx.opts.variables_used)
    if (host_ref_matches("*" + p + "*", name))
      return true;
  return false;
}

// Host-reference pruning: the host code's __constant__ list names it.
bool host_uses(const Context &ctx, std::string_view name) {
  for (std::string_view p : ctx.host_constant_patterns)
    if (host_ref_matches(p, name))
      return true;
  return false;
}

} // namespace

// The bank, its section symbol and both their names leave the output.
void remove_constant_bank(Context &ctx, OutputSection *sec) {
  sec->removed = true;
  auto &sh = ctx.out.shstrtab_names;
  if (auto it = std::find_if(sh.begin(), sh.end(), [&](const auto &e) { return e.name == sec->name; });
      it != sh.end())
    sh.erase(it);
  auto &st = ctx.out.strtab_names;
  if (auto it = std::find(st.begin(), st.end(), sec->name); it != st.end())
    st.erase(it);
  if (sec->symbol) {
    sec->symbol->removed = true;
    std::erase(ctx.out.locals, sec->symbol);
  }
}

u64 relayout_constant_bank(Context &ctx) {
  OutputSection *sec = find_section(ctx, ctx.arch.is_mercury() ? ".nv.constant.user" : ".nv.constant3");
  if (!sec || sec->size <= kMaxConstantBank || relocatable_output(ctx))
    return sec ? sec->size : 0;
  auto refuse = [&](std::string_view why) {
    ctx.diag.fatal(fmt::format("the __constant__ variables ({} bytes, over 0x{:x}) would be laid "
                               "out again by nvlink, {}, which dlink does not link yet",
                               fmt::format("0x{:x}", sec->size), kMaxConstantBank, why));
  };
  // The variables, in the order their output symbols were created.
  std::vector<OutputSymbol *> vars;
  for (OutputSymbol *sym : ctx.out.globals)
    if (sym->section == sec && !sym->is_section_symbol && !sym->removed)
      vars.push_back(sym);
  // A local (static) variable goes after the sorted ones (measured with one,
  // no pruning); under kernel pruning nvlink crashes on one (SIGFPE).
  const KernelFilter filter = kernel_filter(ctx);
  std::vector<OutputSymbol *> locals;
  for (OutputSymbol *sym : ctx.out.locals)
    if (sym->section == sec && !sym->is_section_symbol && !sym->removed)
      locals.push_back(sym);
  vars.insert(vars.end(), locals.begin(), locals.end());
  std::vector<Placed> placed;
  for (OutputSymbol *sym : vars) {
    if (sym->size == 0)
      refuse(fmt::format("with the empty variable '{}'", sym->name));
    if (sym->value + sym->size > sec->size)
      refuse(fmt::format("with the variable '{}' outside its bank", sym->name));
    placed.push_back({sym, sym->value, 0});
  }
  for (size_t i = 0; i < placed.size(); i++)
    for (size_t j = i + 1; j < placed.size(); j++)
      if (placed[i].old_offset < placed[j].old_offset + placed[j].sym->size &&
          placed[j].old_offset < placed[i].old_offset + placed[i].sym->size)
        refuse(fmt::format("with the overlapping variables '{}' and '{}'", placed[i].sym->name,
                           placed[j].sym->name));
  // Relocations against the bank's section symbol address a variable.
  auto target_of = [&](const OutputReloc &r) -> const Placed * {
    if (!r.sym || r.sym->section != sec)
      return nullptr;
    if (!r.sym->is_section_symbol)
      return variable_at(placed, r.sym->value);
    const Placed *p = variable_at(placed, r.bias + static_cast<u64>(r.addend));
    if (!p)
      refuse("with a relocation into no variable of the bank");
    return p;
  };
  OutputSection *rel = nullptr;
  for (OutputSection *s : ctx.out.sections)
    if (s->target == sec && !s->removed) {
      if (rel)
        refuse("with two relocation sections of the bank");
      rel = s;
    }
  // Kernel pruning: only the variables that something kept refers to, or
  // -variables-used names, stay (a kept variable's initialiser keeps the
  // variables it points to).
  std::vector<bool> used(placed.size(), filter.mode == KernelFilter::Mode::All);
  if (filter.mode != KernelFilter::Mode::All) {
    auto mark = [&](const Placed *p) {
      if (!p)
        return false;
      size_t k = static_cast<size_t>(p - placed.data());
      bool changed = !used[k];
      used[k] = true;
      return changed;
    };
    for (size_t k = 0; k < placed.size(); k++)
      if (filter.mode == KernelFilter::Mode::KernelsUsed ? variables_used_names(ctx, placed[k].sym->name)
                                                         : host_uses(ctx, placed[k].sym->name))
        used[k] = true;
    for (const OutputSection *s : ctx.out.sections)
      if (s->target && s->target != sec && !s->removed && !s->target->removed)
        for (const OutputReloc &r : s->relocs)
          mark(target_of(r));
    for (bool changed = true; changed && rel;) {
      changed = false;
      for (const OutputReloc &r : rel->relocs)
        if (const Placed *from = variable_at(placed, r.offset);
            from && used[static_cast<size_t>(from - placed.data())])
          changed |= mark(target_of(r));
    }
  }
  // A local variable kept under kernel pruning: nvlink crashes (SIGFPE).
  for (size_t k = 0; k < placed.size(); k++)
    if (used[k] && filter.mode != KernelFilter::Mode::All && placed[k].sym->bind == STB_LOCAL)
      refuse(fmt::format("with the local (static) variable '{}' kept under kernel pruning "
                         "(nvlink crashes: floating point exception)",
                         placed[k].sym->name));
  if (filter.mode != KernelFilter::Mode::All)
    locals.clear(); // (all dropped)
  std::vector<OutputSymbol *> kept;
  for (size_t k = 0; k < placed.size(); k++)
    if (used[k] && placed[k].sym->bind != STB_LOCAL)
      kept.push_back(placed[k].sym);
  u64 size = 0, align = 1;
  std::unordered_map<const OutputSymbol *, u64> new_offset;
  // (The local variables head nvlink's list and sort after every other
  // variable: measured with one, whose place in the list changes how the
  // ties fall.)
  std::vector<OutputSymbol *> list = locals;
  list.insert(list.end(), kept.begin(), kept.end());
  std::vector<OutputSymbol *> order = relayout_sort(list);
  for (OutputSymbol *sym : order) {
    // (The bank takes the largest of these alignments, 3, 5, 6 or 7
    // included: its file offset too.)
    align = std::max(align, relayout_alignment(sym->size));
    size = align_to(size, relayout_alignment(sym->size));
    new_offset[sym] = size;
    size += sym->size;
  }
  if (size > kMaxConstantBank)
    return size; // (reported by layout_memory; no output follows)
  // Address initialisers in a bank laid out again (`__constant__ int *p =
  // &x`): nvlink then often fails ("Internal error: reloc address not
  // found", exit 1) or crashes (SIGSEGV), and where it links, its rule is
  // not derived. (Those of `.nv.global.init` against a variable follow the
  // variable: measured identical.)
  if (rel && !rel->relocs.empty())
    refuse("with address initialisers in the bank");
  if (kept.empty() && locals.empty()) {
    // Nothing kept: nvlink deletes the bank, names included.
    if (rel)
      refuse("with the relocations of variables that are all dropped");
    remove_constant_bank(ctx, sec);
  }
  std::vector<u8> data(size, 0);
  for (Placed &p : placed) {
    auto it = new_offset.find(p.sym);
    if (it == new_offset.end()) {
      p.sym->removed = true;
      continue;
    }
    p.new_offset = it->second;
    std::copy_n(sec->data.begin() + static_cast<std::ptrdiff_t>(p.old_offset), p.sym->size,
                data.begin() + static_cast<std::ptrdiff_t>(p.new_offset));
    p.sym->value = p.new_offset;
  }
  auto moved = [&](const Placed *p) { return !p->sym->removed; };
  // References through the section symbol follow their variable.
  for (OutputSection *s : ctx.out.sections)
    if (s->target && !s->removed)
      for (OutputReloc &r : s->relocs)
        if (r.sym && r.sym->is_section_symbol && r.sym->section == sec) {
          const Placed *p = variable_at(placed, r.bias + static_cast<u64>(r.addend));
          if (!p || !moved(p))
            refuse("with a relocation into a removed variable");
          r.bias = r.bias + p->new_offset - p->old_offset;
        }
  if (rel) {
    std::vector<OutputReloc> relocs;
    for (OutputReloc r : rel->relocs) {
      const Placed *p = variable_at(placed, r.offset);
      if (!p)
        refuse("with a relocation outside its variables");
      if (!moved(p))
        continue;
      r.offset = r.offset - p->old_offset + p->new_offset;
      relocs.push_back(r);
    }
    rel->relocs = std::move(relocs);
  }
  // (The dropped variables leave no name in .strtab either: nvlink drops
  // them before it writes the global names.)
  auto dropped = [&](const OutputSymbol *sym) {
    return sym->removed && sym->section == sec && !sym->is_section_symbol && !new_offset.count(sym);
  };
  std::erase_if(ctx.out.globals, dropped);
  for (OutputSymbol *sym : ctx.out.locals)
    if (dropped(sym))
      if (auto it = std::find(ctx.out.strtab_names.begin(), ctx.out.strtab_names.end(), sym->name);
          it != ctx.out.strtab_names.end())
        ctx.out.strtab_names.erase(it);
  std::erase_if(ctx.out.locals, dropped);
  sec->data = std::move(data);
  sec->size = size;
  sec->align = align;
  // (The packing of identical input banks under kernel pruning is a
  // concatenation's: it has nothing left to share.)
  if (ctx.out.constant_bank.sets_null_symbol)
    ctx.out.null_symbol_value = 0;
  ctx.out.constant_bank.chunks.clear();
  ctx.out.constant_bank.shared = false;
  ctx.out.constant_bank.section = nullptr;
  return size;
}

} // namespace dlink
