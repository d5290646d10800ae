// dlink entry point: parse the nvlink command line and run the link.
#include "dlink/diag.h"
#include "dlink/driver.h"
#include "dlink/options.h"

#include <iostream>

int main(int argc, char **argv) {
  std::vector<std::string> args(argv, argv + argc);
  dlink::Diagnostics diag(std::cerr);
  try {
    dlink::Options opts = dlink::parse_command_line(args, diag);
    if (opts.help) {
      std::cout << dlink::help_text();
      return 0;
    }
    if (opts.version) {
      std::cout << dlink::version_text();
      return 0;
    }
    return dlink::link(opts, diag);
  } catch (const dlink::FatalError &) {
    return 1;
  }
}
