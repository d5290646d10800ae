// Itanium C++ ABI demangling in the style nvlink prints (-dump-callgraph).
//
// nvlink's demangler is not GNU's: function templates show their return type
// and their signature unsubstituted (T1, T2, ... for T_, T0_, ...), literals
// print as casts ("(int)4"), spacing follows the EDG front end
// ("const Big &", but "const A&" when A comes from a substitution of a name
// prefix), constructors and destructors carry a kind ("[deleting]",
// "[subobject]"), and so on. The rules are measured from nvlink 13.0.88; see
// testdata/demangle/ for the pairs and the probes that produced them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dlink {

// The name as nvlink prints it, or nullopt when nvlink prints the raw name:
// the name does not start with "_Z", is malformed or truncated, has trailing
// characters, or uses a mangling nvlink does not decode (_ZL..., decimal
// floating point, vector types given by expression, ...). A "$<digits>"
// suffix (cubins carry local copies of functions named so) is dropped; any
// other "$<text>" after a function prints as "[clone <function>] <text>".
// Names nested more than a couple hundred levels deep, or printing to
// megabytes, also give nullopt, though nvlink would print them.
std::optional<std::string> demangle(std::string_view name);

} // namespace dlink
