// Research (docs/notes/demangling.md): prints, for every mangled name read from
// stdin (one a line), "mangled<TAB>dlink<TAB>__cxa_demangle<TAB>LLVM", each
// demangler's text or the raw name where it gives none (as nvlink prints it).
// Build: see measure.sh.
#include "dlink/demangle.h"

#include <cxxabi.h>
#include <llvm/Demangle/Demangle.h>

#include <cstdlib>
#include <iostream>
#include <string>

int main() {
  for (std::string name; std::getline(std::cin, name);) {
    std::string ours = dlink::demangle(name).value_or(name);
    int status = 0;
    char *gnu = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
    std::string g = gnu && status == 0 ? gnu : name;
    std::free(gnu);
    char *ll = llvm::itaniumDemangle(name.c_str(), nullptr, nullptr, &status);
    std::string l = ll && status == 0 ? ll : name;
    std::free(ll);
    std::cout << name << '\t' << ours << '\t' << g << '\t' << l << '\n';
  }
}
