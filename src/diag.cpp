// Diagnostics engine (diag.h).
#include "dlink/diag.h"

namespace dlink {

void Diagnostics::emit(DiagnosticRecord::Severity severity, std::string_view tag,
                       std::string_view msg) {
  std::string suffix = report_arch.empty() ? "" : " (target: " + report_arch + ")";
  *out_ << tool << ' ' << tag << " : " << msg << suffix << '\n';
  if (records)
    records->push_back({severity, std::string(msg) + suffix});
}

void Diagnostics::info(std::string_view msg) {
  emit(DiagnosticRecord::Severity::Info, "info   ", msg);
}

void Diagnostics::warning(std::string_view msg) {
  if (warnings_as_errors) {
    error(msg);
    return;
  }
  if (!suppress_warnings)
    emit(DiagnosticRecord::Severity::Warning, "warning", msg);
}

void Diagnostics::warning_always(std::string_view msg) {
  if (warnings_as_errors) {
    error(msg);
    return;
  }
  emit(DiagnosticRecord::Severity::Warning, "warning", msg);
}

void Diagnostics::error(std::string_view msg) {
  errors_++;
  emit(DiagnosticRecord::Severity::Error, "error  ", msg);
}

void Diagnostics::fatal(std::string_view msg) {
  emit(DiagnosticRecord::Severity::Fatal, "fatal  ", msg);
  out_->flush();
  throw FatalError{};
}

} // namespace dlink
