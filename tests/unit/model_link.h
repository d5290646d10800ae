// A link context for tests that build an output model by hand: an nvlink
// command line parsed, the arch set, the skeleton sections made.
#pragma once

#include "dlink/diag.h"
#include "dlink/options.h"
#include "link_context.h"
#include "output_model.h"

#include <sstream>
#include <string>
#include <vector>

namespace dlink {

struct ModelLink {
  std::ostringstream err;
  Diagnostics diag{err};
  Options opts;
  Context ctx;
  explicit ModelLink(const std::vector<std::string> &args) : opts(parse_command_line(args, diag)), ctx(opts, diag) {
    ctx.arch = *opts.arch;
    create_skeleton(ctx);
  }
};

} // namespace dlink
