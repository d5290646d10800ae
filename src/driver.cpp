// link(): the pipeline, stage by stage.
#include "dlink/driver.h"

namespace dlink {

int link(const Options &opts, Diagnostics &diag) {
  (void)opts;
  diag.fatal("not implemented");
}

} // namespace dlink
