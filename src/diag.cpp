// Diagnostics engine (diag.h).
#include "dlink/diag.h"

namespace dlink {

void Diagnostics::emit(std::string_view tag, std::string_view msg, bool with_arch) {
  *out_ << "nvlink " << tag << " : " << msg;
  if (with_arch && !report_arch.empty())
    *out_ << " (target: " << report_arch << ")";
  *out_ << '\n';
}

void Diagnostics::info(std::string_view msg) {
  if (!disable_infos)
    emit("info   ", msg, false);
}

void Diagnostics::warning(std::string_view msg) {
  if (warnings_as_errors) {
    error(msg);
    return;
  }
  if (!suppress_warnings)
    emit("warning", msg, true);
}

void Diagnostics::warning_always(std::string_view msg) {
  if (warnings_as_errors) {
    error(msg);
    return;
  }
  emit("warning", msg, true);
}

void Diagnostics::error(std::string_view msg) {
  errors_++;
  emit("error  ", msg, true);
}

void Diagnostics::fatal(std::string_view msg) {
  emit("fatal  ", msg, false);
  out_->flush();
  throw FatalError{};
}

} // namespace dlink
