// The link pipeline entry point.
#pragma once

#include "dlink/diag.h"
#include "dlink/options.h"

namespace dlink {

// Runs a whole link as nvlink would for `opts`. Returns the process exit
// status (0, or 255 after errors); fatal problems throw FatalError.
int link(const Options &opts, Diagnostics &diag);

} // namespace dlink
