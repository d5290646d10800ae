# All dependencies come from Debian packages (see tools/install-deps).
find_package(PkgConfig REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(TBB REQUIRED) # oneTBB: parallel stages (include/dlink/parallel.h)
pkg_check_modules(ZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(LZ4 REQUIRED IMPORTED_TARGET liblz4)
pkg_check_modules(XXHASH REQUIRED IMPORTED_TARGET libxxhash)

# The libraries the dlink command loads at start. dlink is started once per
# device link, most often for a handful of inputs, where loading and
# relocating ten shared libraries was a fifth of the link (docs/performance.md,
# "Start-up"). With DLINK_STATIC_DEPS (the default) spdlog, the costliest of
# them to load, is compiled in from its Debian headers (header-only mode; only
# src/log.cpp includes it) and zstd, LZ4 and xxHash come from their Debian
# static archives (position-independent, so libdlink.so takes them too).
# fmt stays shared: it costs little to load, and its header-only mode would
# add seconds to the compilation of every file that formats a message.
# oneTBB, mimalloc and libstdc++ stay shared too.
option(DLINK_STATIC_DEPS "Compile spdlog in, link zstd/LZ4/xxHash statically" ON)
add_library(dlink_spdlog INTERFACE)
add_library(dlink_compression INTERFACE)
if(DLINK_STATIC_DEPS)
  # spdlog without SPDLOG_COMPILED_LIB is header-only; its fmt is Debian's.
  get_target_property(DLINK_SPDLOG_INCLUDES spdlog::spdlog INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(dlink_spdlog INTERFACE ${DLINK_SPDLOG_INCLUDES})
  target_compile_definitions(dlink_spdlog INTERFACE SPDLOG_FMT_EXTERNAL)
  target_link_libraries(dlink_spdlog INTERFACE fmt::fmt)
  foreach(lib ZSTD LZ4 XXHASH)
    string(TOLOWER ${lib} name)
    find_library(DLINK_${lib}_ARCHIVE NAMES lib${name}.a HINTS ${${lib}_LIBRARY_DIRS})
    if(DLINK_${lib}_ARCHIVE)
      target_link_libraries(dlink_compression INTERFACE ${DLINK_${lib}_ARCHIVE})
      target_include_directories(dlink_compression INTERFACE ${${lib}_INCLUDE_DIRS})
    else()
      target_link_libraries(dlink_compression INTERFACE PkgConfig::${lib})
    endif()
  endforeach()
else()
  target_link_libraries(dlink_spdlog INTERFACE spdlog::spdlog)
  target_link_libraries(dlink_compression INTERFACE PkgConfig::ZSTD PkgConfig::LZ4 PkgConfig::XXHASH)
endif()

if(DLINK_MIMALLOC)
  find_package(mimalloc REQUIRED) # the dlink executable's malloc (src/CMakeLists.txt)
endif()
if(DLINK_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
