// Developer tracing: what a stage decided and why, for whoever works on
// dlink. Independent of -v and of every nvlink option; silent unless
// configured (main reads DLINK_LOG=debug|trace once), written to stderr
// through spdlog. When off, a call costs one comparison: the message is not
// even formatted.
#pragma once

#include <fmt/format.h>

#include <string_view>
#include <utility>

namespace dlink::log {

enum class Level { Trace = 0, Debug = 1, Off = 2 };

namespace detail {
inline Level current = Level::Off;
void write(Level level, std::string_view message);
} // namespace detail

inline bool enabled(Level level) { return level >= detail::current; }

// "debug", "trace", "off" or "" (off). False for anything else (the level is
// left as it was).
bool configure(std::string_view level);
// The level from the environment variable DLINK_LOG, read once (main).
void configure_from_environment();

template <class... Args> void debug(fmt::format_string<Args...> format, Args &&...args) {
  if (enabled(Level::Debug))
    detail::write(Level::Debug, fmt::format(format, std::forward<Args>(args)...));
}

template <class... Args> void trace(fmt::format_string<Args...> format, Args &&...args) {
  if (enabled(Level::Trace))
    detail::write(Level::Trace, fmt::format(format, std::forward<Args>(args)...));
}

} // namespace dlink::log
