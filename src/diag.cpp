// Diagnostics engine (diag.h).
#include "dlink/diag.h"

namespace dlink {

void Diagnostics::emit(std::string_view tag, std::string_view msg) {
  *out_ << tool << ' ' << tag << " : " << msg;
  if (!report_arch.empty())
    *out_ << " (target: " << report_arch << ")";
  *out_ << '\n';
}

void Diagnostics::info(std::string_view msg) {
  emit("info   ", msg);
}

void Diagnostics::warning(std::string_view msg) {
  if (warnings_as_errors) {
    error(msg);
    return;
  }
  if (!suppress_warnings)
    emit("warning", msg);
}

void Diagnostics::warning_always(std::string_view msg) {
  if (warnings_as_errors) {
    error(msg);
    return;
  }
  emit("warning", msg);
}

void Diagnostics::error(std::string_view msg) {
  errors_++;
  emit("error  ", msg);
}

void Diagnostics::fatal(std::string_view msg) {
  emit("fatal  ", msg);
  out_->flush();
  throw FatalError{};
}

} // namespace dlink
