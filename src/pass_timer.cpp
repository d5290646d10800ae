#include "pass_timer.h"

#include "dlink/log.h"

#include <cstdlib>
#include <fstream>
#include <string>

#include <sys/resource.h>

namespace dlink {

namespace {

// The process's resident memory now, the part of it that is mapped files
// (the inputs, the executable and its libraries) and the peak, in MiB
// (Linux: /proc/self/status VmRSS, RssFile and VmHWM; 0 where unknown).
struct Resident {
  double now = 0, peak = 0, file = 0;
};

Resident resident_memory() {
  Resident r;
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    double *to = line.starts_with("VmRSS:")     ? &r.now
                 : line.starts_with("VmHWM:")   ? &r.peak
                 : line.starts_with("RssFile:") ? &r.file
                                                : nullptr;
    if (to)
      *to = std::strtod(line.c_str() + line.find(':') + 1, nullptr) / 1024.0; // kB
  }
  return r;
}

} // namespace

bool timing_enabled(const Context &ctx) {
  return ctx.opts.dlink_time_passes || log::enabled(log::Level::Debug);
}

void report_timing(std::string_view name, double ms) {
  Resident mem = resident_memory();
  // (Page faults so far, every thread's: the ones that did not need I/O.)
  rusage usage{};
  long faults = getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_minflt : 0;
  if (log::enabled(log::Level::Debug))
    log::debug("pass {:<22} {:10.3f} ms  rss {:7.1f} MiB (files {:6.1f})  peak {:7.1f} MiB  faults {}", name, ms,
               mem.now, mem.file, mem.peak, faults);
  else
    fmt::print(stderr,
               "dlink: pass {:<22} {:10.3f} ms  rss {:7.1f} MiB (files {:6.1f})  peak {:7.1f} MiB  faults {}\n", name,
               ms, mem.now, mem.file, mem.peak, faults);
}

StepTimer::StepTimer(const Context &ctx, std::string_view stage) : stage_(stage), timed_(timing_enabled(ctx)) {
  if (timed_)
    last_ = Clock::now();
}

void StepTimer::step(std::string_view name) {
  if (!timed_)
    return;
  Clock::time_point now = Clock::now();
  report_timing(fmt::format("{}.{}", stage_, name), std::chrono::duration<double, std::milli>(now - last_).count());
  last_ = Clock::now();
}

} // namespace dlink
