// Diagnostics engine: nvlink-compatible messages on stderr.
//
// Every user-facing message goes through here, with nvlink's exact prefixes
// ("nvlink error   : ", "nvlink warning : ", "nvlink info    : ",
// "nvlink fatal   : "; like nvlink, the program name as invoked replaces
// "nvlink"). With -report-arch every message after option parsing ends in
// " (target: sm_XX)". A fatal diagnostic throws FatalError, which main()
// catches: the process then exits with status 1. Errors are counted and the
// link stops at the next checkpoint with status 255, as nvlink does.
#pragma once

#include <fmt/format.h>

#include <iostream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace dlink {

struct FatalError {};

// One message as the library API (include/dlink/dlink.h) hands it out.
struct DiagnosticRecord {
  enum class Severity { Info, Warning, Error, Fatal } severity;
  std::string message; // without the "nvlink error   : " prefix; with -report-arch's suffix
};

class Diagnostics {
public:
  explicit Diagnostics(std::ostream &out = std::cerr) : out_(&out) {}

  std::string tool = "nvlink";     // basename(argv[0])
  // Settings from the command line.
  bool warnings_as_errors = false; // -Werror
  bool suppress_warnings = false;  // -w
  // -disable-infos: nvlink 13.0 silences no info line with it (measured);
  // the driver uses it only for the few warnings it does silence.
  bool disable_infos = false;
  std::string report_arch;         // -report-arch: " (target: sm_90)" suffix
  // When set, every message is also appended here (the library API).
  std::vector<DiagnosticRecord> *records = nullptr;

  void info(std::string_view msg);
  void warning(std::string_view msg);
  void error(std::string_view msg);
  [[noreturn]] void fatal(std::string_view msg);

  // Messages that are printed regardless of -w (nvlink prints the arch
  // warning even with -w).
  void warning_always(std::string_view msg);

  int error_count() const { return errors_; }
  bool has_errors() const { return errors_ > 0; }
  // Exit status for the current state: 0, or 255 after errors.
  int exit_code() const { return errors_ ? 255 : 0; }

  std::ostream &stream() { return *out_; }

private:
  void emit(DiagnosticRecord::Severity severity, std::string_view tag, std::string_view msg);
  std::ostream *out_;
  int errors_ = 0;
};

} // namespace dlink
