// -ghls: the host linker script that keeps the fatbin sections together.
//
// "lcs-aug" is a fixed augmenting script (measured: nvlink 13.0 prints
// exactly these lines). "lcs-abs" is a complete script: the host linker's
// default script for the host compiler's link mode, with the same rules
// appended. nvlink builds it with two shell commands (observed with strace,
// docs/notes/command-line.md); dlink runs the same commands in the same
// order, so the result is the same file on the same machine:
//   1. `ld --verbose <link-mode flags of CCBIN> | ... > OUT` (OUT is
//      /dev/stdout without -o), the banner lines stripped;
//   2. the augmenting rules appended to OUT (through dlink's own stdout
//      without -o, which, like nvlink's, keeps its own file offset);
//   3. with -o only: `ld -T OUT` must complain of nothing but the missing
//      input files, else "Host linker script creation failed." (the file
//      is left as written, as nvlink leaves it).
#include "dlink/driver.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

namespace dlink {

namespace {

constexpr std::string_view kAugmentScript = "SECTIONS\n"
                                            "{\n"
                                            "\t.nvFatBinSegment : { *(.nvFatBinSegment) }\n"
                                            "\t__nv_relfatbin : { *(__nv_relfatbin) } \n"
                                            "\t.nv_fatbin : { *(.nv_fatbin) }\n"
                                            "}\n";

constexpr std::string_view kFailed = "Host linker script creation failed.";

// The shell command that writes the host linker's default script to `out`.
std::string default_script_command(const Options &opts, const std::string &out) {
  const std::string ccbin = opts.host_ccbin.empty() ? "gcc" : opts.host_ccbin;
  return fmt::format("ld --verbose $({} -### /dev/null  -m64  2>&1 | grep collect2  | grep -wo "
                     "-e -pie -e \"-z [^[:space:]]*\" -e \"-m [^[:space:]]*\" -e -r -e -shared  | "
                     "tr \"\\n\" \" \" ) | grep -Fvx -e \"$(ld -V)\" | sed '1,2d;$d' > {}",
                     ccbin, out);
}

int write_absolute_script(const Options &opts, Diagnostics &diag) {
  const bool to_stdout = opts.output_file.empty();
  const std::string out = to_stdout ? "/dev/stdout" : opts.output_file;
  std::fflush(stdout);
  if (std::system(default_script_command(opts, out).c_str()) != 0)
    diag.fatal(kFailed);
  if (to_stdout) {
    std::fwrite(kAugmentScript.data(), 1, kAugmentScript.size(), stdout);
    std::fflush(stdout);
    return 0;
  }
  FILE *f = std::fopen(out.c_str(), "a");
  if (!f)
    diag.fatal(kFailed);
  std::fwrite(kAugmentScript.data(), 1, kAugmentScript.size(), f);
  std::fclose(f);
  const std::string check = fmt::format("ld -T {} 2>&1 | grep 'no input files' > /dev/null", out);
  if (std::system(check.c_str()) != 0)
    diag.fatal(kFailed);
  return 0;
}

} // namespace

int write_host_linker_script(const Options &opts, Diagnostics &diag) {
  if (opts.gen_host_linker_script == "lcs-abs")
    return write_absolute_script(opts, diag);
  if (opts.output_file.empty()) {
    std::cout << kAugmentScript;
    return 0;
  }
  FILE *f = std::fopen(opts.output_file.c_str(), "wb");
  if (!f)
    diag.fatal(fmt::format("Could not open output file '{}'", opts.output_file));
  std::fwrite(kAugmentScript.data(), 1, kAugmentScript.size(), f);
  std::fclose(f);
  return 0;
}

} // namespace dlink
