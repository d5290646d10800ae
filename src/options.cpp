// The nvlink command line (options.h), measured against nvlink 13.0.88.
//
// One table, kOptions, describes every option: its long and short names, how
// its value is read (flag, string, integer, enumeration, true/false, comma
// list, options file), where it is stored in Options, where and whether it
// appears in the canonical command line of the .note.nv.tkinfo note, and its
// --help entry. parse_command_line() walks argv once, left to right, exactly
// as nvlink does: every problem is fatal at the token where nvlink stops, and
// "incompatible redefinition" warnings are printed as the repeated option is
// read. Then, unless -h or -V was given, it runs nvlink's option checks in
// nvlink's order. Everything below was established by running the real
// nvlink (black box) and is summarised in docs/notes/command-line.md.
//
// Spelling (measured):
//  * "--" + long name or "-" + short name; nothing else ("--o", "-output-file",
//    "--lfoo" are unknown). "Unknown option 'X'": X is the token minus its
//    first '-', cut at the first '=' ("--bogus=3" -> '-bogus').
//  * Values: "-opt=v", "--opt=v", "-opt v", "--opt v". The separate word is
//    taken whatever it looks like ("-o -v" writes a file named -v). "-l", "-L"
//    and "-m" also take a joined value when the token is not an option name:
//    "-lfoo", "-L/a=b", "-larch=sm_80" (-l 'arch=sm_80'), but "-lto" is -lto.
//  * -Ofc and -ghls have an optional value: the next word is taken only when
//    it does not start with '-'; bare, they mean "0" and "lcs-abs".
//  * Lists (-l, -L, -kernels-used, -variables-used, -Xptxas, -Xnvvm, -optf,
//    hidden --host-linker-options) split at ',', drop empty items, accumulate.
//  * Scalars given again with another value warn "incompatible redefinition
//    for option '<long name>', the last value of this option was used" (not
//    silenced by -w, not turned into an error by -Werror) and the last wins.
//    Integers compare by value (-maxrregcount 16 and 0x10 are the same).
//  * Integers are read like strtoll base 0 over the whole word ("" is 0, " 12"
//    is 12, "12 " / "08" / "0x" are "'X': expected a number"), and must fit
//    32 bits: "32-bit integer value (X) out of range". -m is an integer whose
//    only allowed value is 64 ("-m 0x40" is fine, "-m 064" is not defined).
//  * -device-stack-protector takes "true" or "false" ("'X': expected true or
//    false"), although --help shows no value.
//  * --options-file: words separated by space, \t, \n, \r; '"' toggles
//    quoting and is dropped; '\' takes the next character literally, except
//    that '\"' is dropped altogether; a final '\' is "Stray '' character" and
//    an open quote "Stray '"' character". A file is split completely before
//    its options are read; an option at its end does not take a value from
//    the words after -optf. Files nest up to 15 deep ("Too many options file
//    opened 'F'" when the 16th would be opened); names are relative to the
//    current directory.
//  * Every parse problem is fatal (exit 1) and stops at once.
//
// Checks after parsing (measured order; all fatal except the info lines and
// the preserve-relocs warning; -h and -V skip them all, -h winning over -V):
//   -ghls: inputs given -> "Input files are not allowed with -ghls option; use
//     --help for more information"; otherwise nothing else is checked.
//   no -arch -> "Unknown arch name '(null)'"; no -o -> "Must specify output
//   file with -o option"; no input -> "No input files specified; use option
//   --help for more information" (-l does not count); -suppress-debug-info
//   without -g; -dump-callgraph with -dump-callgraph-no-demangle;
//   -use-host-info with -ignore-host-info; info "ignore -use-host-info because
//   ..."; lto_ target -> "Link target of 'lto_90' is virtual target that is
//   not JIT-able; use 'sm_' target instead"; -lto/-dlto without -nvvmpath;
//   -emit-ptx without LTO; -Ofc without LTO; info -emit-ptx with
//   -split-compile-extended; bad -Ofc value -> "Invalid argument for option
//   '--Ofast-compile'"; warning for -preserve-relocs on sm_90 and newer
//   (not silenced by -w, an error with -Werror, silenced by -disable-infos).
//   With -report-arch (and -arch) all of these end in " (target: <arch>)";
//   parse messages never do. parse_command_line sets Diagnostics::report_arch.
//
// Canonical command line (.note.nv.tkinfo): one entry per option given, in a
// fixed order (rank below) unrelated to argv and to --help. Each entry is
// "-<short name> <value> ": flags have an empty value (two spaces), lists
// are joined with ',', integers are written in decimal, -Ofc bare is "0".
// File options (the inputs, -o, -time, --register-link-binaries, -optf) are
// recorded only with -g, as their basename; the inputs are written without a
// name, --register-link-binaries as "- <file>", -optf with an empty value.
// Never recorded: --host-ccbin, --shared, --host-linker-options,
// --allow-undefined-globals, --force-rela, -h, -V, dlink's developer
// options --dlink-time-passes, --dlink-no-refinalize and --threads (-j), and its explanation
// options --map, --why-extract, --resource-report and --trace-symbol (-y).
// Not observable: -ghls (no cubin is written) and -uidx (needs a uidx file; recorded here like
// -nvvmpath, after -optf: UNVERIFIED).
#include "dlink/options.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <span>
#include <sstream>

namespace dlink {

namespace {

enum class Kind {
  Flag,        // no value
  String,      // one value, the last one wins
  Int,         // a 32-bit integer
  Enum,        // one of `allowed`
  IntEnum,     // an integer whose decimal form is one of `allowed` (-m)
  Bool,        // "true" or "false"
  List,        // comma-separated values that accumulate
  OptionsFile, // comma-separated files whose contents are read as options
};

enum class Record {
  Never,  // not part of the canonical command line
  Always, // "-short value " whenever given
  Debug,  // only with -g, and the value reduced to its basename
};

// Allowed values, in nvlink's --help order.
constexpr std::string_view kArchNames[] = {
    "compute_100", "compute_100a", "compute_100f", "compute_103", "compute_103a", "compute_103f",
    "compute_110", "compute_110a", "compute_110f", "compute_120", "compute_120a", "compute_120f",
    "compute_121", "compute_121a", "compute_121f", "compute_75",  "compute_80",   "compute_86",
    "compute_87",  "compute_88",   "compute_89",   "compute_90",  "compute_90a",  "lto_100",
    "lto_100a",    "lto_100f",     "lto_103",      "lto_103a",    "lto_103f",     "lto_110",
    "lto_110a",    "lto_110f",     "lto_120",      "lto_120a",    "lto_120f",     "lto_121",
    "lto_121a",    "lto_121f",     "lto_75",       "lto_80",      "lto_86",       "lto_87",
    "lto_88",      "lto_89",       "lto_90",       "lto_90a",     "sm_100",       "sm_100a",
    "sm_100f",     "sm_103",       "sm_103a",      "sm_103f",     "sm_110",       "sm_110a",
    "sm_110f",     "sm_120",       "sm_120a",      "sm_120f",     "sm_121",       "sm_121a",
    "sm_121f",     "sm_75",        "sm_80",        "sm_86",       "sm_87",        "sm_88",
    "sm_89",       "sm_90",        "sm_90a"};
constexpr std::string_view kCpuArchNames[] = {"AARCH64", "ARMv7", "PPC64LE", "X86", "X86_64", "unknown"};
constexpr std::string_view kHostLinkerScriptTypes[] = {"lcs-abs", "lcs-aug"};
constexpr std::string_view kMachineValues[] = {"64"};
constexpr std::string_view kOfastCompileLevels[] = {"0", "min", "mid", "max"};

struct OptionSpec {
  std::string_view long_name;  // without "--"
  std::string_view short_name; // without "-"; empty: only the long form exists
  Kind kind = Kind::Flag;
  bool joined = false;                    // -lfoo, -L., -m64
  std::span<const std::string_view> allowed = {};
  std::string_view implicit_value = {};   // the value when given bare (-Ofc, -ghls)
  Record record = Record::Never;
  int rank = 0;                           // position in the canonical command line
  bool Options::*flag = nullptr;          // Flag and Bool
  std::string Options::*text = nullptr;   // String, Int, Enum, IntEnum
  std::vector<std::string> Options::*list = nullptr; // List
  bool hidden = false;                    // accepted, not in --help
  bool whole = false;                     // List: one item per occurrence, commas kept
  std::string_view help_arg = {};         // "<file name>" in the --help heading
  std::string_view help_heading = {};     // the whole heading, when it is irregular
  std::string_view help = {};             // description lines, without the indent
};

// Every option, in --help order, then the hidden ones nvcc and CMake pass.
// Canonical ranks (measured): 0 is the list of input files.
constexpr OptionSpec kOptions[] = {
    {.long_name = "Ofast-compile", .short_name = "Ofc", .kind = Kind::String,
     .implicit_value = "0", .record = Record::Always, .rank = 28,
     .text = &Options::ofast_compile, .help_arg = "<0|min|mid|max>",
     .help = "Specify fast-compile level for device code, which controls the tradeoff between\n"
             "compilation speed and runtime performance by disabling certain optimizations\n"
             "at varying levels. \n"
             "Levels: \n"
             "        'max': Focus only on the fastest compilation speed, disabling many\n"
             "optimizations.\n"
             "        'mid': Balance compile time and runtime, disabling expensive optimizations.\n"
             "        'min': More minimal impact on both compile time and runtime, minimizing\n"
             "some expensive optimizations.\n"
             "        '0': Disables fast-compile. \n"
             "The option is disabled by default."},
    {.long_name = "Xnvvm", .short_name = "Xnvvm", .kind = Kind::List, .record = Record::Always,
     .rank = 31, .list = &Options::xnvvm, .help_arg = "<options>,...",
     .help = "Nvvm options (only used with LTO)."},
    {.long_name = "Xptxas", .short_name = "Xptxas", .kind = Kind::List, .record = Record::Always,
     .rank = 30, .list = &Options::xptxas, .help_arg = "<options>,...",
     .help = "Ptxas options (only used with LTO)."},
    {.long_name = "arch", .short_name = "arch", .kind = Kind::Enum, .allowed = kArchNames,
     .record = Record::Always, .rank = 5, .text = &Options::arch_string,
     .help_arg = "<gpu architecture name>",
     .help = "Specify the 'sm_' name of the target architecture.\n"
             "Allowed values for this option:  'compute_100','compute_100a','compute_100f',\n"
             "'compute_103','compute_103a','compute_103f','compute_110','compute_110a',\n"
             "'compute_110f','compute_120','compute_120a','compute_120f','compute_121',\n"
             "'compute_121a','compute_121f','compute_75','compute_80','compute_86','compute_87',\n"
             "'compute_88','compute_89','compute_90','compute_90a','lto_100','lto_100a',\n"
             "'lto_100f','lto_103','lto_103a','lto_103f','lto_110','lto_110a','lto_110f',\n"
             "'lto_120','lto_120a','lto_120f','lto_121','lto_121a','lto_121f','lto_75',\n"
             "'lto_80','lto_86','lto_87','lto_88','lto_89','lto_90','lto_90a','sm_100',\n"
             "'sm_100a','sm_100f','sm_103','sm_103a','sm_103f','sm_110','sm_110a','sm_110f',\n"
             "'sm_120','sm_120a','sm_120f','sm_121','sm_121a','sm_121f','sm_75','sm_80',\n"
             "'sm_86','sm_87','sm_88','sm_89','sm_90','sm_90a'."},
    {.long_name = "cpu-arch", .short_name = "cpu-arch", .kind = Kind::Enum,
     .allowed = kCpuArchNames, .record = Record::Always, .rank = 18, .text = &Options::cpu_arch,
     .help_arg = "<cpu architecture name>",
     .help = "Specify the name of the cpu target architecture.\n"
             "Allowed values for this option:  'AARCH64','ARMv7','PPC64LE','X86','X86_64',\n"
             "'unknown'.\n"
             "Default value:  'unknown'."},
    {.long_name = "debug", .short_name = "g", .record = Record::Always, .rank = 4,
     .flag = &Options::debug, .help = "Specify that this was a debug compile."},
    {.long_name = "device-stack-protector", .short_name = "device-stack-protector",
     .kind = Kind::Bool, .record = Record::Always, .rank = 38,
     .flag = &Options::device_stack_protector, .help = "Enable stack protectors."},
    {.long_name = "disable-infos", .short_name = "disable-infos", .record = Record::Always,
     .rank = 14, .flag = &Options::disable_infos, .help = "Disable all info messages."},
    {.long_name = "disable-warnings", .short_name = "w", .record = Record::Always, .rank = 12,
     .flag = &Options::disable_warnings, .help = "Inhibit all warning messages."},
    {.long_name = "dlto", .short_name = "dlto", .record = Record::Always, .rank = 24,
     .flag = &Options::lto, .help = "Do link-time optimization, alias for -lto."},
    {.long_name = "dump-callgraph", .short_name = "dump-callgraph", .record = Record::Always,
     .rank = 33, .flag = &Options::dump_callgraph, .help = "Dump callgraph information."},
    {.long_name = "dump-callgraph-no-demangle", .short_name = "dump-callgraph-no-demangle",
     .record = Record::Always, .rank = 34, .flag = &Options::dump_callgraph_no_demangle,
     .help = "Dump callgraph information without demangling."},
    {.long_name = "emit-ptx", .short_name = "emit-ptx", .record = Record::Always, .rank = 20,
     .flag = &Options::emit_ptx, .help = "Emit ptx file if LTO is used."},
    {.long_name = "extra-warnings", .short_name = "extrawarn", .record = Record::Always,
     .rank = 22, .flag = &Options::extra_warnings,
     .help = "Emit extra warnings about possible problems."},
    {.long_name = "gen-host-linker-script", .short_name = "ghls", .kind = Kind::Enum,
     .allowed = kHostLinkerScriptTypes, .implicit_value = "lcs-abs",
     .text = &Options::gen_host_linker_script, .help_arg = "<host linker script type>",
     .help = "Specify the type of host linker script to be generated.\n"
             "Allowed values for this option:  'lcs-abs','lcs-aug'."},
    {.long_name = "help", .short_name = "h", .flag = &Options::help,
     .help = "Print this help information on this tool."},
    {.long_name = "ignore-host-info", .short_name = "ignore-host-info", .record = Record::Always,
     .rank = 36, .flag = &Options::ignore_host_info,
     .help = "Ignore information about host references, so don't remove device code that\n"
             "could potentially be referenced by host."},
    {.long_name = "keep-system-libraries", .short_name = "keep-system-libraries",
     .record = Record::Always, .rank = 15, .flag = &Options::keep_system_libraries,
     .help = "Don't optimize away system library (e.g. cudadevrt) code."},
    {.long_name = "kernels-used", .short_name = "kernels-used", .kind = Kind::List,
     .record = Record::Always, .rank = 16, .list = &Options::kernels_used,
     .help_arg = "<kernel>,...",
     .help = "Specify kernels that are used. Can be part of a kernel name so any kernels\n"
             "with that string in name are matched. If this option is used, then any other\n"
             "kernels are considered dead-code and removed."},
    {.long_name = "library", .short_name = "l", .kind = Kind::List, .joined = true,
     .record = Record::Always, .rank = 7, .list = &Options::libraries,
     .help_arg = "<library>,...",
     .help = "Specify libraries to be used in the linking stage. The libraries are searched\n"
             "for on the library search paths that have been specified using option '-L'."},
    {.long_name = "library-path", .short_name = "L", .kind = Kind::List, .joined = true,
     .record = Record::Always, .rank = 8, .list = &Options::library_paths,
     .help_arg = "<library-path>,...", .help = "Specify library search paths."},
    {.long_name = "link-time-opt", .short_name = "lto", .record = Record::Always, .rank = 23,
     .flag = &Options::lto, .help = "Do link-time optimization."},
    {.long_name = "machine", .short_name = "m", .kind = Kind::IntEnum, .joined = true,
     .allowed = kMachineValues, .record = Record::Always, .rank = 6, .text = &Options::machine,
     .help_arg = "<bits>",
     .help = "Specify 64 bit architecture.\n"
             "Allowed values for this option:  64.\n"
             "Default value:  64."},
    {.long_name = "maxrregcount", .short_name = "maxrregcount", .kind = Kind::Int,
     .record = Record::Always, .rank = 32, .text = &Options::maxrregcount,
     .help_arg = "<amount>", .help = "Max regcount (only used with LTO)."},
    {.long_name = "nvvmpath", .short_name = "nvvmpath", .kind = Kind::String,
     .record = Record::Always, .rank = 25, .text = &Options::nvvmpath,
     .help = "Path to libnvvm library."},
    {.long_name = "options-file", .short_name = "optf", .kind = Kind::OptionsFile,
     .record = Record::Debug, .rank = 39, .help_arg = "<file>,...",
     .help = "Include command line options from specified file."},
    {.long_name = "output-file", .short_name = "o", .kind = Kind::String, .record = Record::Debug,
     .rank = 3, .text = &Options::output_file, .help_arg = "<file name>",
     .help = "Specify name and location of the output file."},
    {.long_name = "preserve-relocs", .short_name = "preserve-relocs", .record = Record::Always,
     .rank = 11, .flag = &Options::preserve_relocs,
     .help = "Preserve resolved relocations in linked executable."},
    {.long_name = "register-link-binaries", .short_name = "", .kind = Kind::String,
     .record = Record::Debug, .rank = 9, .text = &Options::register_link_binaries,
     .help_heading = "--register-link-binaries <file name>                --register-link-binaries <file\n"
                     "        name>  ",
     .help = "Specify name and location of output file that will contain names of cudaRegister\n"
             "routines for each linked file."},
    {.long_name = "relocatable-link", .short_name = "r", .record = Record::Always, .rank = 37,
     .flag = &Options::relocatable, .help = "Do relocatable / incremental link."},
    {.long_name = "report-arch", .short_name = "report-arch", .record = Record::Always,
     .rank = 19, .flag = &Options::report_arch,
     .help = "Report SM target arch in error messages."},
    {.long_name = "split-compile", .short_name = "split-compile", .kind = Kind::Int,
     .record = Record::Always, .rank = 26, .text = &Options::split_compile,
     .help_arg = "<amount>",
     .help = "Max threads nvvm can use for split compilation (only used with LTO).\n"
             "Default value:  1."},
    {.long_name = "split-compile-extended", .short_name = "split-compile-extended",
     .kind = Kind::Int, .record = Record::Always, .rank = 27,
     .text = &Options::split_compile_extended, .help_arg = "<amount>",
     .help = "Max threads linker can use for extended split compilation (only used with\n"
             "LTO).\n"
             "Default value:  1."},
    {.long_name = "suppress-arch-warning", .short_name = "suppress-arch-warning",
     .record = Record::Always, .rank = 2, .flag = &Options::suppress_arch_warning,
     .help = "Suppress the warning that otherwise is printed when object does not contain\n"
             "code for target arch."},
    {.long_name = "suppress-debug-info", .short_name = "suppress-debug-info",
     .record = Record::Always, .rank = 29, .flag = &Options::suppress_debug_info,
     .help = "Do not preserve debug symbols in output.\n"
             "Note: This option is ignored if used without --debug option."},
    {.long_name = "suppress-stack-size-warning", .short_name = "suppress-stack-size-warning",
     .record = Record::Always, .rank = 1, .flag = &Options::suppress_stack_size_warning,
     .help = "Suppress the warning that otherwise is printed when stack size cannot be\n"
             "determined."},
    {.long_name = "time", .short_name = "time", .kind = Kind::String, .record = Record::Debug,
     .rank = 21, .text = &Options::time_file, .help_arg = "<file name>",
     .help = "Generate a comma separated value table with the time taken by this program\n"
             "and sub-component invocations, and append it at the end of the file given\n"
             "as the option argument. If the file is empty, the column headings are generated\n"
             "in the first row of the table. If the file name is '-', the timing data is\n"
             "generated in stdout."},
    {.long_name = "uidx-file", .short_name = "uidx", .kind = Kind::String,
     .record = Record::Always, .rank = 40, .text = &Options::uidx_file,
     .help = "Path to uidx file."},
    {.long_name = "use-host-info", .short_name = "use-host-info", .record = Record::Always,
     .rank = 35, .flag = &Options::use_host_info,
     .help = "Use information about host references to remove unused device code."},
    {.long_name = "variables-used", .short_name = "variables-used", .kind = Kind::List,
     .record = Record::Always, .rank = 17, .list = &Options::variables_used,
     .help_arg = "<variable>,...",
     .help = "Specify variables that are used. Can be part of a variable name so any variable\n"
             "with that string in name are matched. If this option is used, then any other\n"
             "variables are considered dead-code and potentially removed unless have other\n"
             "accesses from device code."},
    {.long_name = "verbose", .short_name = "v", .record = Record::Always, .rank = 10,
     .flag = &Options::verbose,
     .help = "Enable verbose mode which prints code generation statistics."},
    {.long_name = "version", .short_name = "V", .flag = &Options::version,
     .help = "Print version information on this tool."},
    {.long_name = "warning-as-error", .short_name = "Werror", .record = Record::Always,
     .rank = 13, .flag = &Options::warning_as_error, .help = "Make all warnings into errors."},
    // Hidden: accepted by nvlink, absent from --help, never recorded.
    {.long_name = "host-ccbin", .short_name = "host-ccbin", .kind = Kind::String,
     .text = &Options::host_ccbin, .hidden = true},
    {.long_name = "shared", .short_name = "shared", .flag = &Options::shared, .hidden = true},
    {.long_name = "host-linker-options", .short_name = "", .kind = Kind::List,
     .list = &Options::host_linker_options, .hidden = true},
    {.long_name = "allow-undefined-globals", .short_name = "allow-undefined-globals",
     .flag = &Options::allow_undefined_globals, .hidden = true},
    {.long_name = "force-rela", .short_name = "force-rela", .flag = &Options::force_rela,
     .hidden = true},
    // Hidden developer options of dlink (not nvlink's; docs/design.md,
    // "Developer tracing"). Never recorded: they change nothing nvlink
    // records, only what dlink prints to stderr or, for research, whether
    // sm_100+ kernels are re-finalized.
    {.long_name = "dlink-time-passes", .short_name = "dlink-time-passes",
     .flag = &Options::dlink_time_passes, .hidden = true},
    {.long_name = "dlink-no-refinalize", .short_name = "dlink-no-refinalize",
     .flag = &Options::dlink_no_refinalize, .hidden = true},
    // dlink's thread count (dlink/parallel.h); the output does not depend on it.
    {.long_name = "threads", .short_name = "j", .kind = Kind::Int, .joined = true,
     .text = &Options::threads, .hidden = true},
    // dlink's explanation options (docs/explain-*.md): they write reports
    // about the link and change no output byte; never recorded.
    {.long_name = "map", .short_name = "map", .kind = Kind::String,
     .text = &Options::map_file, .hidden = true},
    {.long_name = "why-extract", .short_name = "why-extract", .kind = Kind::String,
     .text = &Options::why_extract_file, .hidden = true},
    {.long_name = "resource-report", .short_name = "resource-report", .kind = Kind::String,
     .text = &Options::resource_report_file, .hidden = true},
    {.long_name = "trace-symbol", .short_name = "y", .kind = Kind::List,
     .list = &Options::trace_symbols, .hidden = true, .whole = true}, // (demangled names have commas)
};
constexpr size_t kOptionCount = std::size(kOptions);

constexpr int kMaxOptionsFileDepth = 15;

std::string basename_of(std::string_view path) {
  auto slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

bool is_allowed(std::span<const std::string_view> allowed, std::string_view value) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

std::string join(const std::vector<std::string> &items) {
  std::string s;
  for (const std::string &item : items) {
    if (!s.empty())
      s += ',';
    s += item;
  }
  return s;
}

// Splits an --options-file text into words (rules in the file comment).
std::vector<std::string> split_options_file(std::string_view text, Diagnostics &diag) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); i++) {
    char c = text[i];
    if (c == '\\') {
      if (i + 1 == text.size())
        diag.fatal("Stray '' character");
      char next = text[++i];
      if (next != '"')
        word += next;
      in_word = true;
    } else if (c == '"') {
      quoted = !quoted;
      in_word = true;
    } else if (!quoted && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
      if (in_word)
        words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quoted)
    diag.fatal("Stray '\"' character");
  if (in_word)
    words.push_back(std::move(word));
  return words;
}

// Reads an integer option value as nvlink does (strtoll base 0, whole word,
// 32 bits) and returns it in decimal.
std::string parse_int(const std::string &value, Diagnostics &diag) {
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(value.c_str(), &end, 0);
  if (*end != '\0')
    diag.fatal(fmt::format("'{}': expected a number", value));
  if (errno == ERANGE || v < INT_MIN || v > INT_MAX)
    diag.fatal(fmt::format("32-bit integer value ({}) out of range", value));
  return std::to_string(v);
}

class Parser {
public:
  Parser(Options &opts, Diagnostics &diag) : o_(opts), diag_(diag) {}

  // Reads one word list (argv, or the words of an options file at `depth`).
  void parse(std::span<const std::string> words, int depth) {
    for (size_t i = 0; i < words.size(); i++) {
      const std::string &word = words[i];
      if (word.size() < 2 || word[0] != '-') {
        o_.input_files.push_back(word); // also "" and "-"
        continue;
      }
      bool long_form = word.starts_with("--");
      std::string_view body = std::string_view(word).substr(long_form ? 2 : 1);
      auto eq = body.find('=');
      std::string_view name = body.substr(0, eq);
      const OptionSpec *spec = find(name, long_form);
      if (!spec && !long_form) {
        spec = find_joined(body);
        if (spec) {
          apply(*spec, std::string(body.substr(1)), depth);
          continue;
        }
      }
      if (!spec) {
        std::string_view shown = std::string_view(word).substr(1); // one '-' stripped
        diag_.fatal(fmt::format("Unknown option '{}'", shown.substr(0, shown.find('='))));
      }
      std::string_view typed = std::string_view(word).substr(0, (long_form ? 2 : 1) + name.size());
      if (spec->kind == Kind::Flag) {
        if (eq != std::string_view::npos)
          diag_.fatal(fmt::format("no argument expected after '{}'", typed));
        apply(*spec, {}, depth);
        continue;
      }
      std::string value;
      if (eq != std::string_view::npos) {
        value = std::string(body.substr(eq + 1));
      } else if (!spec->implicit_value.empty()) {
        if (i + 1 < words.size() && !words[i + 1].starts_with('-'))
          value = words[++i];
        else
          value = std::string(spec->implicit_value);
      } else if (i + 1 < words.size()) {
        value = words[++i];
      } else {
        diag_.fatal(fmt::format("argument expected after '{}'", typed));
      }
      apply(*spec, std::move(value), depth);
    }
  }

  // After parsing: derived fields, the canonical command line, and the
  // Diagnostics settings that come from the command line.
  void finish() {
    if (given(find("arch", true)))
      o_.arch = parse_arch(o_.arch_string); // every allowed name parses
    o_.tkinfo_object_name = o_.debug ? basename_of(o_.output_file) : "";
    o_.canonical_command_line = canonical();
    diag_.warnings_as_errors = o_.warning_as_error;
    diag_.suppress_warnings = o_.disable_warnings;
  }

  // nvlink's checks after parsing, in nvlink's order.
  void check() {
    if (o_.report_arch && o_.arch)
      diag_.report_arch = o_.arch_string;
    if (given(find("gen-host-linker-script", true))) {
      if (!o_.input_files.empty())
        diag_.fatal("Input files are not allowed with -ghls option; use --help for more information");
      return;
    }
    if (!o_.arch)
      diag_.fatal("Unknown arch name '(null)'");
    // A virtual (compute_XX) target produces no output, so needs no -o.
    if (!given(find("output-file", true)) && o_.arch->kind != Arch::Kind::Compute)
      diag_.fatal("Must specify output file with -o option");
    if (o_.input_files.empty())
      diag_.fatal("No input files specified; use option --help for more information");
    if (o_.suppress_debug_info && !o_.debug)
      diag_.fatal("Conflicting options '-suppress-debug-info' and 'no -g'");
    if (o_.dump_callgraph && o_.dump_callgraph_no_demangle)
      diag_.fatal("Conflicting options '-dump-callgraph' and '-dump-callgraph-no-demangle'");
    if (o_.use_host_info && o_.ignore_host_info)
      diag_.fatal("Conflicting options '-use-host-info' and '-ignore-host-info'");
    if (o_.use_host_info && (!o_.kernels_used.empty() || !o_.variables_used.empty())) {
      diag_.info("ignore -use-host-info because -kernels-used or -variables-used is specified");
      o_.use_host_info = false;
    }
    if (o_.arch->kind == Arch::Kind::Lto)
      diag_.fatal(fmt::format("Link target of '{}' is virtual target that is not JIT-able; use "
                              "'sm_' target instead",
                              o_.arch_string));
    if (o_.lto && !given(find("nvvmpath", true)))
      diag_.fatal("-nvvmpath should be specified with -lto");
    if (o_.emit_ptx && !o_.lto)
      diag_.fatal("Conflicting options '-emit-ptx' and 'no -dlto'");
    bool ofast = given(find("Ofast-compile", true));
    if (ofast && !o_.lto)
      diag_.fatal("Conflicting options '--Ofast-compile' and 'no -dlto'");
    if (o_.emit_ptx && given(find("split-compile-extended", true))) {
      diag_.info("Incompatible options '-emit-ptx' and '-split-compile-extended', using '-split-compile'");
      o_.split_compile_extended.clear();
    }
    if (ofast && !is_allowed(kOfastCompileLevels, o_.ofast_compile))
      diag_.fatal("Invalid argument for option '--Ofast-compile'");
    // Printed despite -w, an error with -Werror, but silenced by -disable-infos.
    if (o_.preserve_relocs && o_.arch->sm >= 90 && !o_.disable_infos)
      diag_.warning_always(fmt::format("Option '--preserve-relocs' is not fully implemented for gpu "
                                       "archtecture '{}' and may not work as expected",
                                       o_.arch_string));
  }

private:
  struct Seen {
    bool given = false;
    std::string value;               // scalars: the normalised value
    std::vector<std::string> items;  // lists
  };

  static const OptionSpec *find(std::string_view name, bool long_form) {
    for (const OptionSpec &spec : kOptions) {
      std::string_view candidate = long_form ? spec.long_name : spec.short_name;
      if (!candidate.empty() && candidate == name)
        return &spec;
    }
    return nullptr;
  }

  // "-lfoo", "-L/a=b", "-m64": an option with a joined value.
  static const OptionSpec *find_joined(std::string_view body) {
    for (const OptionSpec &spec : kOptions)
      if (spec.joined && body.size() > spec.short_name.size() && body.starts_with(spec.short_name))
        return &spec;
    return nullptr;
  }

  Seen &seen(const OptionSpec &spec) { return seen_[&spec - kOptions]; }
  bool given(const OptionSpec *spec) { return spec && seen(*spec).given; }

  void apply(const OptionSpec &spec, std::string value, int depth) {
    Seen &s = seen(spec);
    switch (spec.kind) {
    case Kind::Flag:
      o_.*spec.flag = true;
      s.given = true;
      return;
    case Kind::List:
    case Kind::OptionsFile: {
      s.given = true;
      if (spec.whole) {
        s.items.push_back(value);
        (o_.*spec.list).push_back(std::move(value));
        return;
      }
      std::string_view rest = value;
      while (!rest.empty()) {
        auto comma = rest.find(',');
        std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
        if (item.empty())
          continue;
        if (spec.kind == Kind::OptionsFile) {
          read_options_file(std::string(item), depth + 1);
        } else {
          s.items.emplace_back(item);
          (o_.*spec.list).emplace_back(item);
        }
      }
      return;
    }
    case Kind::Int:
      value = parse_int(value, diag_);
      break;
    case Kind::IntEnum: {
      std::string number = parse_int(value, diag_);
      if (!is_allowed(spec.allowed, number))
        not_defined(spec, value);
      value = number;
      break;
    }
    case Kind::Enum:
      if (!is_allowed(spec.allowed, value))
        not_defined(spec, value);
      break;
    case Kind::Bool:
      if (value != "true" && value != "false")
        diag_.fatal(fmt::format("'{}': expected true or false", value));
      break;
    case Kind::String:
      break;
    }
    if (s.given && s.value != value)
      diag_.warning_always(fmt::format("incompatible redefinition for option '{}', the last value "
                                       "of this option was used",
                                       spec.long_name));
    s.given = true;
    s.value = value;
    if (spec.kind == Kind::Bool) {
      o_.*spec.flag = value == "true";
      if (spec.flag == &Options::device_stack_protector)
        o_.device_stack_protector_given = true;
    }
    else
      o_.*spec.text = std::move(value);
  }

  [[noreturn]] void not_defined(const OptionSpec &spec, std::string_view value) {
    diag_.fatal(fmt::format("Value '{}' is not defined for option '{}'", value, spec.long_name));
  }

  void read_options_file(const std::string &path, int depth) {
    if (depth > kMaxOptionsFileDepth)
      diag_.fatal(fmt::format("Too many options file opened '{}'", path));
    std::ifstream in(path, std::ios::binary);
    if (!in)
      diag_.fatal(fmt::format("Could not open options file '{}'", path));
    std::ostringstream text;
    text << in.rdbuf();
    std::vector<std::string> words = split_options_file(text.str(), diag_);
    parse(words, depth);
  }

  std::string canonical() {
    std::array<const OptionSpec *, kOptionCount> order{};
    std::transform(std::begin(kOptions), std::end(kOptions), order.begin(),
                   [](const OptionSpec &spec) { return &spec; });
    std::stable_sort(order.begin(), order.end(),
                     [](const OptionSpec *a, const OptionSpec *b) { return a->rank < b->rank; });
    std::string line;
    if (o_.debug && !o_.input_files.empty()) {
      std::vector<std::string> names;
      for (const std::string &input : o_.input_files)
        names.push_back(basename_of(input));
      line += join(names) + " ";
    }
    for (const OptionSpec *spec : order) {
      const Seen &s = seen(*spec);
      if (!s.given || spec->record == Record::Never || (spec->record == Record::Debug && !o_.debug))
        continue;
      std::string value;
      if (spec->kind == Kind::List)
        value = join(s.items);
      else if (spec->kind != Kind::OptionsFile)
        value = spec->record == Record::Debug ? basename_of(s.value) : s.value;
      line += fmt::format("-{} {} ", spec->short_name, value);
    }
    return line;
  }

  Options &o_;
  Diagnostics &diag_;
  std::array<Seen, kOptionCount> seen_{};
};

} // namespace

Options parse_command_line(const std::vector<std::string> &args, Diagnostics &diag) {
  Options o;
  if (!args.empty())
    o.program_name = basename_of(args[0]);
  Parser parser(o, diag);
  if (args.size() > 1)
    parser.parse(std::span<const std::string>(args).subspan(1), 0);
  parser.finish();
  if (!o.help && !o.version)
    parser.check();
  return o;
}

std::string help_text(std::string_view program_name) {
  std::vector<const OptionSpec *> shown;
  for (const OptionSpec &spec : kOptions)
    if (!spec.hidden)
      shown.push_back(&spec);
  std::sort(shown.begin(), shown.end(),
            [](const OptionSpec *a, const OptionSpec *b) { return a->long_name < b->long_name; });
  std::string text = fmt::format("\nUsage  : {} [options] <objects>\n\nOptions\n=======\n\n", program_name);
  for (const OptionSpec *spec : shown) {
    if (!spec->help_heading.empty()) {
      text += spec->help_heading;
    } else {
      std::string left = fmt::format("--{}", spec->long_name);
      if (!spec->help_arg.empty())
        left += fmt::format(" {}", spec->help_arg);
      text += fmt::format("{:<52}{:<28}", left, fmt::format("(-{})", spec->short_name));
    }
    text += '\n';
    std::string_view rest = spec->help;
    while (true) {
      auto nl = rest.find('\n');
      text += fmt::format("        {}\n", rest.substr(0, nl));
      if (nl == std::string_view::npos)
        break;
      rest = rest.substr(nl + 1);
    }
    text += '\n';
  }
  text += '\n';
  return text;
}

bool reports_dlink_identity(std::string_view program_name) { return program_name == "dlink"; }

std::string version_text(std::string_view program_name) {
  // Drop-in first: scripts parse nvlink's five lines, so any name but "dlink"
  // gets exactly what nvlink prints under that name.
  auto nvlink_lines = [](std::string_view name) {
    return fmt::format("{}: NVIDIA (R) Cuda linker\n"
                       "Copyright (c) 2005-2025 NVIDIA Corporation\n"
                       "Built on Wed_Aug_20_01:58:59_PM_PDT_2025\n"
                       "{}\n{}\n",
                       name, kNvlinkReleaseLine, kNvlinkBuildLine);
  };
  if (!reports_dlink_identity(program_name))
    return nvlink_lines(program_name);
  return "dlink " DLINK_VERSION " (emulating nvlink 13.0.88)\n" + nvlink_lines("nvlink");
}

} // namespace dlink
