// The link pipeline entry point.
#pragma once

#include "dlink/diag.h"
#include "dlink/options.h"

namespace dlink {

// What becomes of the link's state after a successful link() returns.
enum class Teardown {
  Full,        // freed (a link run in a longer-lived process: the tests)
  LeaveToExit, // left for the process exit to reclaim (the dlink command)
};

// Runs a whole link as nvlink would for `opts`. Returns the process exit
// status (0, or 255 after errors); fatal problems throw FatalError.
int link(const Options &opts, Diagnostics &diag, Teardown teardown = Teardown::Full);

// -ghls: writes the host linker script nvcc uses for relocatable device code
// to -o (or stdout) instead of linking.
int write_host_linker_script(const Options &opts, Diagnostics &diag);

} // namespace dlink
