// dlink entry point: parse the nvlink command line and run the link.
#include "dlink/diag.h"
#include "dlink/driver.h"
#include "dlink/log.h"
#include "dlink/options.h"

#include <iostream>

namespace {

std::string basename_of(const std::string &path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

int main(int argc, char **argv) {
  dlink::log::configure_from_environment(); // DLINK_LOG: developer tracing
  std::vector<std::string> args(argv, argv + argc);
  dlink::Diagnostics diag(std::cerr);
  if (!args.empty())
    diag.tool = basename_of(args[0]);
  try {
    dlink::Options opts = dlink::parse_command_line(args, diag);
    if (opts.help) {
      std::cout << dlink::help_text(opts.program_name);
      return 0;
    }
    if (opts.version) {
      std::cout << dlink::version_text(opts.program_name);
      return 0;
    }
    if (!opts.gen_host_linker_script.empty())
      return dlink::write_host_linker_script(opts, diag);
    return dlink::link(opts, diag, dlink::Teardown::LeaveToExit);
  } catch (const dlink::FatalError &) {
    return 1;
  }
}
