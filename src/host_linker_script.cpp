// -ghls: the host linker script that keeps the fatbin sections together.
//
// "lcs-aug" is a fixed augmenting script (measured: nvlink 13.0 prints
// exactly these lines). "lcs-abs" asks the host linker for its default
// script and splices the same rules into it; dlink does not implement that
// variant yet and says so.
#include "dlink/driver.h"

#include <fstream>
#include <iostream>

namespace dlink {

namespace {

constexpr std::string_view kAugmentScript = "SECTIONS\n"
                                            "{\n"
                                            "\t.nvFatBinSegment : { *(.nvFatBinSegment) }\n"
                                            "\t__nv_relfatbin : { *(__nv_relfatbin) } \n"
                                            "\t.nv_fatbin : { *(.nv_fatbin) }\n"
                                            "}\n";

} // namespace

int write_host_linker_script(const Options &opts, Diagnostics &diag) {
  if (opts.gen_host_linker_script != "lcs-aug")
    diag.fatal("-ghls=lcs-abs (complete host linker script) is not supported by dlink yet");
  if (opts.output_file.empty()) {
    std::cout << kAugmentScript;
    return 0;
  }
  std::ofstream out(opts.output_file, std::ios::binary | std::ios::trunc);
  if (!out)
    diag.fatal(fmt::format("Could not open output file '{}'", opts.output_file));
  out << kAugmentScript;
  return 0;
}

} // namespace dlink
