// libFuzzer target: the command line and options files, src/options.cpp.
//
// Input layout: the words of argv separated by NUL bytes; after the first
// pair of NUL bytes ("\0\0"), the text of an options file named "o" in the
// (scratch) working directory, so that "-optf o" (or --options-file=o,o)
// reads it, nested files included. argv[0] is "nvlink". parse_command_line()
// runs with its checks; problems must end in Diagnostics::fatal (FatalError);
// any other exception, crash, leak or undefined behaviour is a finding.
#include "fuzz_common.h"

#include "dlink/diag.h"
#include "dlink/options.h"

#include <sstream>

using namespace dlink;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  std::filesystem::current_path(fuzz::scratch_dir());
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view in(reinterpret_cast<const char *>(data), size);
  size_t split = in.find(std::string_view("\0\0", 2));
  std::string_view argv_part = in.substr(0, split);
  std::filesystem::path optf = fuzz::scratch_dir() / "o";
  if (split == std::string_view::npos) {
    std::error_code ec;
    std::filesystem::remove(optf, ec);
  } else {
    std::string_view file = in.substr(split + 2);
    fuzz::write_file(optf, {reinterpret_cast<const u8 *>(file.data()), file.size()});
  }
  std::vector<std::string> args{"nvlink"};
  while (!argv_part.empty()) {
    size_t nul = argv_part.find('\0');
    args.emplace_back(argv_part.substr(0, nul));
    argv_part = nul == std::string_view::npos ? std::string_view{} : argv_part.substr(nul + 1);
  }
  std::ostringstream out;
  Diagnostics diag(out);
  try {
    Options opts = parse_command_line(args, diag);
    if (opts.help)
      (void)help_text(opts.program_name);
    if (opts.version)
      (void)version_text(opts.program_name);
  } catch (const FatalError &) {
  }
  return 0;
}
