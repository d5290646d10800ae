// --why-extract=FILE: why each archive member is part of the link, in lld's
// TSV format (docs/explain-why-extract.md): a heading line, then one line
// per member loaded, "reference<TAB>archive(member)<TAB>symbol".
//
// nvlink has two rules (docs/notes/inputs.md):
//  * a user archive: every member is loaded, referenced or not. The
//    reference column says so ("<every member of a device archive>"); the
//    symbol column names the first symbol the member defines that another
//    input references (empty: nothing references it).
//  * a system library (libcudadevrt): members are read in order while some
//    global symbol is undefined: the reference column is the input that
//    referenced the symbol pending when the member was read, the symbol
//    column that symbol (the member need not define it: nvlink reads every
//    member before the last one needed).
#include "explain/explain.h"

#include <fmt/format.h>

#include <unordered_map>

namespace dlink {

std::string describe_why_extract(const Context &ctx) {
  std::string out = "reference\textracted\tsymbol\n";
  // Global symbols each input references (undefined there), first referrer.
  std::unordered_map<std::string_view, const InputObject *> referrer;
  for (const InputObject *obj : ctx.inputs)
    for (const ElfSymbol &s : obj->symbols)
      if (s.bind() != STB_LOCAL && s.shndx == SHN_UNDEF && !s.name.empty() && s.type() != STT_SECTION)
        referrer.try_emplace(s.name, obj);
  for (const InputObject *obj : ctx.inputs) {
    const InputOrigin &o = obj->origin;
    if (o.member.empty())
      continue;
    std::string extracted = fmt::format("{}({})", o.file, o.member);
    if (!o.every_member) {
      out += fmt::format("{}\t{}\t{}\n", o.pending_referrer, extracted, o.pending_symbol);
      continue;
    }
    std::string_view symbol;
    for (const ElfSymbol &s : obj->symbols) {
      if (s.bind() == STB_LOCAL || s.shndx == SHN_UNDEF || s.type() == STT_SECTION)
        continue;
      auto it = referrer.find(s.name);
      if (it != referrer.end() && it->second != obj) {
        symbol = s.name;
        break;
      }
    }
    out += fmt::format("<every member of a device archive>\t{}\t{}\n", extracted, symbol);
  }
  return out;
}

} // namespace dlink
