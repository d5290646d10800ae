// The nvlink command line: every option nvlink 13.0.88 accepts.
//
// parse_command_line() follows nvlink's spelling rules (long names only with
// "--", short names only with "-", "=" or a separate word for values, joined
// values only for -l/-L/-m, comma lists for list options, --options-file
// expansion) and reports problems with nvlink's exact texts through the
// Diagnostics engine (fatal for malformed command lines). After parsing it
// runs nvlink's option checks in nvlink's order (missing -arch / -o / inputs,
// conflicting options), except when -h or -V was given: the caller then only
// prints help_text() / version_text(). With -ghls the only check is "no
// inputs"; the caller then writes the host linker script and stops.
//
// It also builds the canonical command line nvlink records in its
// .note.nv.tkinfo note. The measured rules are in src/options.cpp and
// docs/notes/command-line.md.
#pragma once

#include "dlink/arch.h"
#include "dlink/diag.h"

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlink {

// Set by the library API (include/dlink/dlink.h), never by the command line:
// inputs read from memory and the image returned in memory. Neither changes
// a byte of the image.
struct EmbeddedIo {
  // Input path -> its bytes (owned by the API's link), read instead of the file.
  std::map<std::string, std::span<const std::uint8_t>, std::less<>> inputs;
  // When set, the image goes here instead of -o's file.
  std::vector<std::uint8_t> *output = nullptr;
};

struct Options {
  std::string program_name = "nvlink"; // basename(argv[0]), recorded in tkinfo

  std::optional<Arch> arch; // -arch
  std::string arch_string;  // the -arch value as written
  std::string output_file;  // -o
  std::vector<std::string> input_files;
  std::vector<std::string> libraries;     // -l
  std::vector<std::string> library_paths; // -L
  std::string register_link_binaries;     // --register-link-binaries
  std::string host_ccbin;                 // --host-ccbin (hidden, from nvcc)
  std::string cpu_arch;                   // -cpu-arch
  std::string machine = "64";             // -m
  std::vector<std::string> kernels_used;   // -kernels-used
  std::vector<std::string> variables_used; // -variables-used
  std::vector<std::string> xptxas;         // -Xptxas
  std::vector<std::string> xnvvm;          // -Xnvvm
  std::string nvvmpath;                    // -nvvmpath
  std::string ofast_compile;               // -Ofc
  std::string maxrregcount;                // -maxrregcount
  std::string split_compile;               // -split-compile
  std::string split_compile_extended;      // -split-compile-extended
  std::string time_file;                   // -time
  std::string uidx_file;                   // -uidx
  std::string gen_host_linker_script;      // -ghls ("lcs-abs" when given bare)
  std::vector<std::string> host_linker_options; // --host-linker-options (hidden)

  bool debug = false;                 // -g
  bool verbose = false;               // -v
  bool relocatable = false;           // -r
  bool shared = false;                // --shared (hidden, from nvcc/CMake)
  bool lto = false;                   // -lto / -dlto
  bool emit_ptx = false;              // -emit-ptx
  bool preserve_relocs = false;       // -preserve-relocs
  bool dump_callgraph = false;        // -dump-callgraph
  bool dump_callgraph_no_demangle = false;
  bool use_host_info = false;
  bool ignore_host_info = false;
  bool keep_system_libraries = false;
  bool suppress_arch_warning = false;
  bool suppress_stack_size_warning = false;
  bool suppress_debug_info = false;
  bool device_stack_protector = false;
  bool device_stack_protector_given = false; // -device-stack-protector given (true or false)
  bool extra_warnings = false;  // -extrawarn
  bool report_arch = false;     // -report-arch
  bool warning_as_error = false; // -Werror
  bool disable_warnings = false; // -w
  bool disable_infos = false;
  bool allow_undefined_globals = false; // --allow-undefined-globals (hidden)
  bool force_rela = false;              // --force-rela (hidden)
  // dlink's own hidden developer options (never recorded, not in --help):
  bool dlink_time_passes = false;   // --dlink-time-passes: one stderr line per stage with its time
  bool dlink_no_refinalize = false; // --dlink-no-refinalize: sm_100+ kernels keep ptxas's code (research)
  // --threads N / -j N (dlink's own, never recorded, not in --help): threads
  // one link may use; empty: every available core. No output byte depends
  // on it (dlink/parallel.h).
  std::string threads;
  // dlink's explanation options (never recorded, not in --help; they
  // change no output byte; src/explain, docs/explain-*.md). "-" is stdout.
  std::string map_file;                    // --map
  std::string why_extract_file;            // --why-extract
  std::string resource_report_file;        // --resource-report
  std::vector<std::string> trace_symbols;  // --trace-symbol / -y (repeatable)
  bool help = false;
  bool version = false;

  EmbeddedIo embedded; // the library API's memory inputs and output

  // Notes on the fields above: string fields are empty when the option was
  // not given; -Ofc given without a value is "0"; integer options
  // (-maxrregcount, -split-compile*, -m) hold the value in decimal (nvlink
  // reads them like strtol base 0: "0x10" and "020" are 16). After the
  // option checks, use_host_info is cleared when -kernels-used or
  // -variables-used is given, and split_compile_extended is cleared with
  // -emit-ptx (nvlink says so in an info line and ignores them).

  // The command line as nvlink records it in .note.nv.tkinfo (5th string).
  std::string canonical_command_line;
  // The tkinfo note's object name (1st string): basename of -o with -g, else "".
  std::string tkinfo_object_name;
};

// argv[0] is the program name. Fatal problems throw FatalError via `diag`.
Options parse_command_line(const std::vector<std::string> &args, Diagnostics &diag);

// The two version strings of the emulated nvlink (also the tool version and
// branch strings of its .note.nv.tkinfo note).
inline constexpr std::string_view kNvlinkReleaseLine = "Cuda compilation tools, release 13.0, V13.0.88";
inline constexpr std::string_view kNvlinkBuildLine = "Build cuda_13.0.r13.0/compiler.36424714_0";

// Text for -h: nvlink's help text, byte for byte, with `program_name` in the
// usage line (nvlink prints basename(argv[0]) there).
std::string help_text(std::string_view program_name = "nvlink");

// Text for -V. Under any name other than "dlink" (in particular "nvlink", as
// a drop-in replacement is invoked) this is nvlink's five lines exactly, with
// the program name in the first line as nvlink does, because build scripts
// parse them. Invoked as "dlink" it is "dlink <version> (emulating nvlink
// 13.0.88)" followed by the five lines of the emulated nvlink.
std::string version_text(std::string_view program_name = "dlink");

// True when `program_name` makes -V report dlink's own identity.
bool reports_dlink_identity(std::string_view program_name);

} // namespace dlink
