// The target family's output hooks (target_hooks.h): the defaults, and the
// family's own once the driver has chosen them.
#include "output/target_hooks.h"

namespace dlink {

namespace {
const OutputHooks kNoHooks;
} // namespace

const OutputHooks &output_hooks(const Context &ctx) { return ctx.output_hooks ? *ctx.output_hooks : kNoHooks; }

void select_output_hooks(Context &ctx, const OutputHooks *hooks) { ctx.output_hooks = hooks; }

} // namespace dlink
