// The target family's output hooks (target_hooks.h): the defaults, and the
// family's own once the driver has chosen them.
#include "output/target_hooks.h"

namespace dlink {

const OutputHooks &output_hooks(const Context &ctx) {
  static const OutputHooks kNone;
  return ctx.output_hooks ? *ctx.output_hooks : kNone;
}

void select_output_hooks(Context &ctx, const OutputHooks *hooks) { ctx.output_hooks = hooks; }

} // namespace dlink
