// Developer tracing (dlink/log.h): off unless configured; only the levels
// documented are accepted.
#include "dlink/log.h"

#include <gtest/gtest.h>

namespace dlink {
namespace {

struct LevelGuard {
  ~LevelGuard() { log::configure("off"); }
};

TEST(Log, OffByDefaultAndConfigurable) {
  LevelGuard guard;
  EXPECT_FALSE(log::enabled(log::Level::Debug));
  EXPECT_FALSE(log::enabled(log::Level::Trace));
  EXPECT_TRUE(log::configure("debug"));
  EXPECT_TRUE(log::enabled(log::Level::Debug));
  EXPECT_FALSE(log::enabled(log::Level::Trace));
  EXPECT_TRUE(log::configure("trace"));
  EXPECT_TRUE(log::enabled(log::Level::Trace));
  EXPECT_TRUE(log::enabled(log::Level::Debug));
  EXPECT_FALSE(log::configure("verbose")); // unknown: the level stays
  EXPECT_TRUE(log::enabled(log::Level::Trace));
  EXPECT_TRUE(log::configure(""));
  EXPECT_FALSE(log::enabled(log::Level::Debug));
}

TEST(Log, WritesToStderrOnlyWhenEnabled) {
  LevelGuard guard;
  testing::internal::CaptureStderr();
  testing::internal::CaptureStdout();
  log::debug("hidden {}", 1);
  log::configure("debug");
  log::debug("shown {}", 2);
  log::trace("hidden {}", 3);
  std::string out = testing::internal::GetCapturedStdout();
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(out, "");
  EXPECT_EQ(err, "dlink[debug] shown 2\n");
}

} // namespace
} // namespace dlink
