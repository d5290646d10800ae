// Developer timings (--dlink-time-passes, or DLINK_LOG=debug): one stderr
// line per stage, or per step of a stage, with its wall time, the process's
// resident memory after it and its page faults so far. Off, a timer costs
// one test of a flag.
#pragma once

#include "link_context.h"

#include <chrono>
#include <string_view>

namespace dlink {

bool timing_enabled(const Context &ctx);

// Prints "dlink: pass NAME  T ms  rss ... faults N" (or the same through the
// debug log): the resident memory now, of which mapped files, the peak, and
// the process's minor page faults so far.
void report_timing(std::string_view name, double ms);

// The steps of one stage, each timed from the end of the one before:
//   StepTimer t(ctx, "merge_inputs");
//   ...; t.step("prepare"); ...; t.step("serial");
// prints "merge_inputs.prepare", "merge_inputs.serial".
class StepTimer {
public:
  StepTimer(const Context &ctx, std::string_view stage);
  void step(std::string_view name);

private:
  using Clock = std::chrono::steady_clock;
  std::string_view stage_;
  bool timed_;
  Clock::time_point last_;
};

} // namespace dlink
