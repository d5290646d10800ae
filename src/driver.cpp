// link(): the pipeline, stage by stage. Each stage lives in the file named
// after it; this function is the table of contents.
#include "dlink/driver.h"

#include "input_files.h"
#include "layout.h"
#include "link_context.h"
#include "merge.h"
#include "mercury.h"
#include "nv_info.h"
#include "registration.h"
#include "relocate.h"
#include "writer.h"

#include <cstdlib>

namespace dlink {

namespace {

void check_command_line(Context &ctx) {
  if (!ctx.opts.arch)
    ctx.diag.fatal("Unknown arch name '(null)'");
  ctx.arch = *ctx.opts.arch;
  if (ctx.arch.is_mercury() && !std::getenv("DLINK_EXPERIMENTAL_MERCURY"))
    ctx.diag.fatal(fmt::format("-arch={}: sm_100 and newer targets are not supported by dlink yet",
                               ctx.arch.name()));
  if (ctx.opts.relocatable)
    ctx.diag.fatal("-r (relocatable link) is not supported by dlink yet");
  if (ctx.opts.debug)
    ctx.diag.fatal("-g (debug link) is not supported by dlink yet");
  if (ctx.opts.lto)
    ctx.diag.fatal("-lto is not supported by dlink yet");
}

// nvlink stops after a stage that reported errors.
bool checkpoint(const Context &ctx) { return !ctx.diag.has_errors(); }

// nvlink's last step once the inputs were merged, even after errors:
// --register-link-binaries.
int finish(Context &ctx) {
  write_registration_file(ctx);
  return ctx.diag.exit_code();
}

} // namespace

int link(const Options &opts, Diagnostics &diag) {
  Context ctx(opts, diag);
  check_command_line(ctx);

  read_inputs(ctx);          // files -> relocatable cubins, in link order
  if (!checkpoint(ctx))
    return diag.exit_code();
  merge_inputs(ctx);         // sections, symbols, relocations, metadata merged
  resolve_undefined(ctx);    // undefined references reported; symbol set frozen
  if (!checkpoint(ctx))
    return finish(ctx);

  layout_memory(ctx);        // shared/constant/global offsets fixed
  apply_relocations(ctx);    // link-time relocations applied, the rest kept
  build_nv_info(ctx);        // EIATTR records rewritten, stack sizes computed
  if (opts.verbose)
    report_resources(ctx);   // -v: gmem and per-kernel resource lines
  finish_sections(ctx);      // callgraph/prototype; global symbols fixed
  build_mercury(ctx);        // sm_100+: the capsule-Mercury twin sections
  write_output(ctx);         // section/symbol order, tables, headers, bytes
  if (!checkpoint(ctx))
    return finish(ctx);

  commit_output(ctx);        // temp file + rename: never a partial output
  return finish(ctx);
}

} // namespace dlink
