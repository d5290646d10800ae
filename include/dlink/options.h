// The nvlink command line: every option nvlink 13.0.88 accepts.
//
// parse_command_line() follows nvlink's spelling rules (long names only with
// "--", short names only with "-", "=" or a separate word for values, joined
// values only for -l/-L/-m, comma lists for list options, --options-file
// expansion) and reports problems with nvlink's exact texts through the
// Diagnostics engine (fatal for malformed command lines).
//
// It also builds the canonical command line nvlink records in its
// .note.nv.tkinfo note.
#pragma once

#include "dlink/arch.h"
#include "dlink/diag.h"

#include <optional>
#include <string>
#include <vector>

namespace dlink {

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
  std::string gen_host_linker_script;      // -ghls

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
  bool extra_warnings = false;  // -extrawarn
  bool report_arch = false;     // -report-arch
  bool warning_as_error = false; // -Werror
  bool disable_warnings = false; // -w
  bool disable_infos = false;
  bool help = false;
  bool version = false;

  // The command line as nvlink records it in .note.nv.tkinfo.
  std::string canonical_command_line;
};

// argv[0] is the program name. Fatal problems throw FatalError via `diag`.
Options parse_command_line(const std::vector<std::string> &args, Diagnostics &diag);

// Texts for -h and -V.
std::string help_text();
std::string version_text();

} // namespace dlink
