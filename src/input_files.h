// Stage 1: reading inputs.
#pragma once

#include "link_context.h"

namespace dlink {

// Opens every input named on the command line, classifies it by content and
// turns each device object into an InputObject in link order. Unsupported
// input kinds are rejected with a clear fatal error.
void read_inputs(Context &ctx);

} // namespace dlink
