// Itanium C++ ABI demangler printing names the way nvlink does (demangle.h).
//
// A recursive-descent parser over the mangling grammar of the Itanium C++ ABI
// (itanium-cxx-abi.github.io/cxx-abi/abi.html#mangling). Names and
// expressions become text as soon as they are parsed. Types become a small
// tree, because how a type prints depends on where it ends up: C declarator
// syntax puts the declarator inside the type ("int (*)[3]"), so
// print(type, inner) prints `type` declaring `inner`.
//
// Every rule in src/demangle/ that is not plain C++ syntax was measured with nvlink
// 13.0.88 -dump-callgraph (testdata/demangle/).
#include "dlink/demangle.h"

#include "demangle/parser.h"

namespace dlink {

std::optional<std::string> demangle(std::string_view name) {
  if (!name.starts_with("_Z"))
    return std::nullopt;
  try {
    return demangler::Parser(name).mangled_name();
  } catch (const demangler::Invalid &) {
    return std::nullopt;
  }
}

} // namespace dlink
