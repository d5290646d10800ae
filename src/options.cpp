// Minimal nvlink command-line parser (placeholder until the full option table lands).
#include "dlink/options.h"

namespace dlink {

Options parse_command_line(const std::vector<std::string> &args, Diagnostics &diag) {
  Options o;
  if (!args.empty()) {
    auto slash = args[0].rfind('/');
    o.program_name = slash == std::string::npos ? args[0] : args[0].substr(slash + 1);
  }
  for (size_t i = 1; i < args.size(); i++) {
    std::string a = args[i];
    auto value = [&](std::string_view name) -> std::string {
      if (a.size() > name.size() && a[name.size()] == '=')
        return a.substr(name.size() + 1);
      if (i + 1 >= args.size())
        diag.fatal(fmt::format("argument expected after '{}'", name));
      return args[++i];
    };
    if (a == "-arch" || a.starts_with("-arch=") || a == "--arch" || a.starts_with("--arch=")) {
      o.arch_string = value(a.starts_with("--") ? "--arch" : "-arch");
      o.arch = parse_arch(o.arch_string);
      if (!o.arch)
        diag.fatal(fmt::format("Value '{}' is not defined for option 'arch'", o.arch_string));
    } else if (a == "-o" || a.starts_with("-o=")) {
      o.output_file = value("-o");
    } else if (!a.empty() && a[0] == '-') {
      diag.fatal(fmt::format("Unknown option '{}'", a.substr(1)));
    } else {
      o.input_files.push_back(a);
    }
  }
  if (o.arch)
    o.canonical_command_line = "-arch " + o.arch->sm_name() + " ";
  return o;
}

std::string help_text() { return "Usage  : nvlink [options] <objects>\n"; }

std::string version_text() {
  return "dlink " DLINK_VERSION " (emulating nvlink 13.0.88)\n";
}

} // namespace dlink
