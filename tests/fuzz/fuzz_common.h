// Helpers shared by the libFuzzer targets.
#pragma once

#include "dlink/common.h"

#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>

namespace dlink::fuzz {

inline std::span<const u8> as_span(const uint8_t *data, size_t size) {
  return {reinterpret_cast<const u8 *>(data), size};
}

// A private directory for files a target must write (on tmpfs when there is
// one), created once per process. Left in place: libFuzzer ends the process
// with exit() or a signal; tools/fuzz removes its scratch directory.
inline const std::filesystem::path &scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::string base;
    if (const char *t = std::getenv("DLINK_FUZZ_TMP"))
      base = t;
    else if (std::filesystem::is_directory("/dev/shm"))
      base = "/dev/shm";
    else
      base = std::filesystem::temp_directory_path().string();
    std::string tmpl = base + "/dlink-fuzz.XXXXXX";
    if (!::mkdtemp(tmpl.data())) {
      std::perror("dlink fuzz: mkdtemp");
      std::abort();
    }
    return std::filesystem::path(tmpl);
  }();
  return dir;
}

inline void write_file(const std::filesystem::path &p, std::span<const u8> bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    std::perror("dlink fuzz: write");
    std::abort();
  }
}

} // namespace dlink::fuzz
