// nvlink -g (debug_link.h).
#include "debug_link.h"

#include "output_model.h"

namespace dlink {

namespace {

bool compiled_with_device_debug(const InputObject &obj) {
  return obj.elf.find_section(".debug_info").has_value();
}

} // namespace

void check_debug_link(Context &ctx) {
  if (!ctx.opts.debug)
    return;
  if (ctx.arch.is_mercury()) {
    for (const InputObject *obj : ctx.inputs) {
      if (compiled_with_device_debug(*obj))
        continue;
      for (const ElfSymbol &s : obj->symbols)
        if (s.type() == STT_FUNC && s.shndx != SHN_UNDEF && (s.other & STO_CUDA_ENTRY))
          ctx.diag.fatal(fmt::format(
              "-g (debug link) of sm_100 and newer kernels compiled without -G ('{}' in '{}') "
              "is not supported by dlink yet",
              s.name, obj->name));
    }
  }
  if (find_section(ctx, ".nv_debug.shared") || !ctx.out.extern_shared_by_name.empty())
    ctx.diag.fatal("-g (debug link) with namespace-scope, extern or device-function __shared__ "
                   "variables is not supported by dlink yet");
}

} // namespace dlink
