// The layout stage (merge.h, relayout_constant_bank): the __constant__
// variables laid out again when the inputs' banks together exceed 64 KiB.
// Measured on nvlink 13.0.88: docs/notes/diagnostics.md "Constant bank laid
// out again".
#include "merge.h"
#include "arch_format.h"

#include "dlink/host_object.h"

#include "dead_code.h"
#include "output_model.h"
#include "relocatable.h"

#include <algorithm>
#include <unordered_map>

namespace dlink {

namespace {

constexpr u64 kMaxConstantBank = 0x10000;

// nvlink's alignment for a variable it lays out again: its size up to 8
// bytes (3, 5, 6 and 7 included), 8 above; the declared alignment plays no
// part.
u64 relayout_alignment(u64 size) { return size < 8 ? size : 8; }

// Whether a goes before b: larger alignment first, then smaller size. A
// local (static) variable sorts as if its alignment were 0: after the
// others, the locals by size.
bool relayout_before_or_tie(const OutputSymbol *a, const OutputSymbol *b) {
  auto key = [](const OutputSymbol *s) { return s->bind == STB_LOCAL ? 0 : relayout_alignment(s->size); };
  u64 fa = key(a), fb = key(b);
  if (fa != fb)
    return fa > fb;
  return a->size <= b->size;
}

// nvlink's list merge sort, ties included: the list is dealt alternately
// (first element to the first half) onto the front of two lists, each is
// sorted, and the merge takes from the first list on ties. (Measured with up
// to 14 variables of equal sizes, whose order comes out permuted, and
// random mixes, sm_75-sm_120.)
std::vector<OutputSymbol *> relayout_sort(const std::vector<OutputSymbol *> &list) {
  if (list.size() <= 1)
    return list;
  std::vector<OutputSymbol *> a, b;
  for (size_t i = 0; i < list.size(); i++)
    (i % 2 == 0 ? a : b).push_back(list[i]);
  std::reverse(a.begin(), a.end()); // (each dealt onto the front of its list)
  std::reverse(b.begin(), b.end());
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

bool matches_any(std::span<const std::string_view> patterns, std::string_view name) {
  return std::any_of(patterns.begin(), patterns.end(),
                     [&](std::string_view p) { return host_ref_matches(p, name); });
}

class ConstantRelayout {
public:
  ConstantRelayout(Context &ctx, OutputSection *sec)
      : ctx_(ctx), sec_(sec), filter_(kernel_filter(ctx)) {}

  // Returns the size of the new layout; rewrites the bank when it fits.
  u64 run() {
    collect();
    if (filter_.mode != KernelFilter::Mode::All)
      mark_used();
    u64 size = lay_out();
    if (size > kMaxConstantBank)
      return size; // (reported by layout_memory; no output follows)
    rewrite(size);
    return size;
  }

private:
  struct Var {
    OutputSymbol *sym;
    u64 old_offset;
    u64 new_offset = 0;
    bool used = false;
    bool kept = false;
  };

  [[noreturn]] void refuse(std::string_view why) {
    ctx_.diag.fatal(fmt::format("the __constant__ variables (0x{:x} bytes, over 0x{:x}) would be "
                                "laid out again by nvlink, {}, which dlink does not link yet",
                                sec_->size, kMaxConstantBank, why));
  }

  bool pruning() const { return filter_.mode != KernelFilter::Mode::All; }

  // nvlink's list: the local variables first, then the global ones in the
  // order their output symbols were created.
  void collect() {
    for (OutputSymbol *sym : ctx_.out.locals)
      if (sym->section == sec_ && !sym->is_section_symbol && !sym->removed) {
        if (sym->bind != STB_LOCAL)
          refuse(fmt::format("with the weak variable '{}'", sym->name));
        add(sym);
      }
    for (OutputSymbol *sym : ctx_.out.globals)
      if (sym->section == sec_ && !sym->is_section_symbol && !sym->removed)
        add(sym);
    // The variables by old offset (variable_at), and whether two overlap:
    // then the first pair in list order is named.
    by_offset_.resize(vars_.size());
    for (size_t i = 0; i < vars_.size(); i++)
      by_offset_[i] = i;
    std::stable_sort(by_offset_.begin(), by_offset_.end(),
                     [&](size_t x, size_t y) { return vars_[x].old_offset < vars_[y].old_offset; });
    bool overlap = false;
    u64 end = 0;
    for (size_t k = 0; k < by_offset_.size() && !overlap; k++) {
      const Var &v = vars_[by_offset_[k]];
      overlap = k > 0 && v.old_offset < end;
      end = std::max(end, v.old_offset + v.sym->size);
    }
    for (size_t i = 0; overlap && i < vars_.size(); i++)
      for (size_t j = i + 1; j < vars_.size(); j++)
        if (vars_[i].old_offset < vars_[j].old_offset + vars_[j].sym->size &&
            vars_[j].old_offset < vars_[i].old_offset + vars_[i].sym->size)
          refuse(fmt::format("with the overlapping variables '{}' and '{}'", vars_[i].sym->name,
                             vars_[j].sym->name));
    for (OutputSection *s : ctx_.out.sections)
      if (s->target == sec_ && !s->removed) {
        if (rel_)
          refuse("with two relocation sections of the bank");
        rel_ = s;
      }
  }

  void add(OutputSymbol *sym) {
    if (sym->size == 0)
      refuse(fmt::format("with the empty variable '{}'", sym->name));
    if (sym->value + sym->size > sec_->size)
      refuse(fmt::format("with the variable '{}' outside its bank", sym->name));
    vars_.push_back({sym, sym->value});
  }

  // The variable whose bytes hold `offset` (old layout), if any (they do
  // not overlap: collect).
  Var *variable_at(u64 offset) {
    auto it = std::upper_bound(by_offset_.begin(), by_offset_.end(), offset,
                               [&](u64 o, size_t i) { return o < vars_[i].old_offset; });
    if (it == by_offset_.begin())
      return nullptr;
    Var &v = vars_[*std::prev(it)];
    return offset < v.old_offset + v.sym->size ? &v : nullptr;
  }

  // The variable a relocation refers to (through the section symbol too).
  Var *target_of(const OutputReloc &r) {
    if (!r.sym || r.sym->section != sec_)
      return nullptr;
    if (!r.sym->is_section_symbol)
      return variable_at(r.sym->value);
    Var *v = variable_at(r.bias + static_cast<u64>(r.addend));
    if (!v)
      refuse("with a relocation into no variable of the bank");
    return v;
  }

  // Kernel pruning: a variable stays when something kept refers to it (a
  // kept variable's initialiser included), -variables-used names it or,
  // under host-reference pruning, the host objects' constant lists do.
  void mark_used() {
    std::vector<std::string_view> names;
    std::vector<std::string> owned;
    if (filter_.mode == KernelFilter::Mode::KernelsUsed) {
      for (const std::string &p : ctx_.opts.variables_used)
        owned.push_back("*" + p + "*");
      names.assign(owned.begin(), owned.end());
    } else {
      names = ctx_.host_constant_patterns;
    }
    for (Var &v : vars_)
      v.used = matches_any(names, v.sym->name);
    for (const OutputSection *s : ctx_.out.sections)
      if (s->target && s->target != sec_ && !s->removed && !s->target->removed)
        for (const OutputReloc &r : s->relocs)
          if (Var *v = target_of(r))
            v->used = true;
    for (bool changed = true; changed && rel_;) {
      changed = false;
      for (const OutputReloc &r : rel_->relocs)
        if (Var *from = variable_at(r.offset); from && from->used)
          if (Var *to = target_of(r); to && !to->used)
            changed = to->used = true;
    }
    for (const Var &v : vars_)
      if (v.used && v.sym->bind == STB_LOCAL)
        refuse(fmt::format("with the local (static) variable '{}' kept under kernel pruning "
                           "(nvlink crashes: floating point exception)",
                           v.sym->name));
  }

  // One after the other from 0, in sorted order, each at the next multiple
  // of its alignment; the bank takes the largest alignment (3, 5, 6 or 7
  // included: its file offset too).
  u64 lay_out() {
    std::vector<OutputSymbol *> list;
    for (Var &v : vars_) {
      v.kept = !pruning() || v.used;
      if (v.kept)
        list.push_back(v.sym);
    }
    u64 size = 0;
    for (OutputSymbol *sym : relayout_sort(list)) {
      u64 a = relayout_alignment(sym->size);
      align_ = std::max(align_, a);
      size = align_to(size, a);
      new_offset_[sym] = size;
      size += sym->size;
    }
    return size;
  }

  void rewrite(u64 size) {
    // Address initialisers in a bank laid out again (`__constant__ int *p =
    // &x`): nvlink then often fails ("Internal error: reloc address not
    // found", exit 1) or crashes (SIGSEGV), and where it links, its rule is
    // not derived. (Those of `.nv.global.init` against a variable follow the
    // variable: measured identical.)
    if (rel_ && !rel_->relocs.empty())
      refuse("with address initialisers in the bank");
    if (new_offset_.empty())
      remove_bank(); // nothing kept: nvlink deletes the bank, names included
    std::vector<u8> data(size, 0);
    for (Var &v : vars_) {
      if (!v.kept) {
        v.sym->removed = true;
        continue;
      }
      v.new_offset = new_offset_.at(v.sym);
      std::copy_n(sec_->data.begin() + static_cast<std::ptrdiff_t>(v.old_offset), v.sym->size,
                  data.begin() + static_cast<std::ptrdiff_t>(v.new_offset));
      v.sym->value = v.new_offset;
    }
    // References through the section symbol follow their variable.
    for (OutputSection *s : ctx_.out.sections)
      if (s->target && !s->removed)
        for (OutputReloc &r : s->relocs)
          if (r.sym && r.sym->is_section_symbol && r.sym->section == sec_) {
            Var *v = variable_at(r.bias + static_cast<u64>(r.addend));
            if (!v || !v->kept)
              refuse("with a relocation into a removed variable");
            r.bias = r.bias + v->new_offset - v->old_offset;
          }
    drop_symbols();
    sec_->data = std::move(data);
    sec_->size = size;
    sec_->align = align_;
    // (The packing of identical input banks under kernel pruning is a
    // concatenation's: it has nothing left to share.)
    auto &bank = ctx_.out.constant_bank;
    if (bank.sets_null_symbol)
      ctx_.out.null_symbol_value = 0;
    bank.chunks.clear();
    bank.shared = false;
    bank.section = nullptr;
  }

  // The dropped variables leave no symbol and no .strtab name (nvlink drops
  // them before it writes the global names).
  void drop_symbols() {
    auto dropped = [&](const OutputSymbol *sym) {
      return sym->removed && sym->section == sec_ && !sym->is_section_symbol &&
             !new_offset_.count(sym);
    };
    std::erase_if(ctx_.out.globals, dropped);
    // Each dropped local takes the first of its name's .strtab entries left.
    std::unordered_map<std::string_view, size_t> to_drop;
    for (OutputSymbol *sym : ctx_.out.locals)
      if (dropped(sym))
        to_drop[sym->name]++;
    auto &names = ctx_.out.strtab_names;
    size_t kept = 0;
    for (std::string_view name : names) {
      auto it = to_drop.find(name);
      if (it != to_drop.end() && it->second > 0)
        it->second--;
      else
        names[kept++] = name;
    }
    names.resize(kept);
    std::erase_if(ctx_.out.locals, dropped);
  }

  // The bank, its section symbol and both their names leave the output.
  void remove_bank() {
    sec_->removed = true;
    auto &sh = ctx_.out.shstrtab_names;
    if (auto it = std::find_if(sh.begin(), sh.end(), [&](const auto &e) { return e.name == sec_->name; });
        it != sh.end())
      sh.erase(it);
    auto &st = ctx_.out.strtab_names;
    if (auto it = std::find(st.begin(), st.end(), sec_->name); it != st.end())
      st.erase(it);
    if (sec_->symbol) {
      sec_->symbol->removed = true;
      std::erase(ctx_.out.locals, sec_->symbol);
    }
  }

  Context &ctx_;
  OutputSection *sec_;
  const KernelFilter filter_;
  std::vector<Var> vars_;
  std::vector<size_t> by_offset_; // indices into vars_, by old offset
  OutputSection *rel_ = nullptr;
  std::unordered_map<const OutputSymbol *, u64> new_offset_;
  u64 align_ = 1;
};

} // namespace

u64 relayout_constant_bank(Context &ctx) {
  OutputSection *sec = find_section(ctx, arch_format(ctx.arch).user_bank);
  if (!sec || sec->size <= kMaxConstantBank || relocatable_output(ctx))
    return sec ? sec->size : 0;
  return ConstantRelayout(ctx, sec).run();
}

} // namespace dlink
