// -dump-callgraph: nvlink's textual call graph on stderr.
#pragma once

#include "link_context.h"

#include <string>

namespace dlink {

// The call graph as nvlink prints it: a legend, one numbered line per
// function symbol (removed ones leave an empty line), then one line per
// register count propagated from a callee to a kernel. Computed from the
// merged graph before build_nv_info rewrites the kernels' register counts.
std::string describe_callgraph(const Context &ctx);

} // namespace dlink
