// Developer tracing (dlink/log.h) through spdlog: one logger of its own,
// writing to stderr, never the default logger (which writes to stdout).
#include "dlink/log.h"

#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace dlink::log {

namespace {

spdlog::logger &logger() {
  static spdlog::logger instance = [] {
    spdlog::logger l("dlink", std::make_shared<spdlog::sinks::stderr_sink_st>());
    l.set_pattern("dlink[%l] %v");
    l.set_level(spdlog::level::trace); // the filtering is ours (enabled())
    l.flush_on(spdlog::level::trace);
    return l;
  }();
  return instance;
}

} // namespace

void detail::write(Level level, std::string_view message) {
  logger().log(level == Level::Trace ? spdlog::level::trace : spdlog::level::debug, message);
}

bool configure(std::string_view level) {
  if (level == "trace")
    detail::current = Level::Trace;
  else if (level == "debug")
    detail::current = Level::Debug;
  else if (level == "off" || level.empty())
    detail::current = Level::Off;
  else
    return false;
  return true;
}

void configure_from_environment() {
  const char *value = std::getenv("DLINK_LOG");
  if (value && !configure(value))
    std::fprintf(stderr, "dlink: DLINK_LOG=%s: expected debug, trace or off; tracing stays off\n", value);
}

} // namespace dlink::log
