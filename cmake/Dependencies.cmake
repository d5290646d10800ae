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
# "Start-up"). With DLINK_STATIC_DEPS (the default) fmt and spdlog are
# compiled in from their Debian headers (header-only mode) and zstd, LZ4 and
# xxHash come from their Debian static archives (position-independent, so
# libdlink.so takes them too); oneTBB, mimalloc and libstdc++ stay shared.
option(DLINK_STATIC_DEPS "Compile fmt and spdlog in, link zstd/LZ4/xxHash statically" ON)
add_library(dlink_fmt INTERFACE)
add_library(dlink_spdlog INTERFACE)
add_library(dlink_compression INTERFACE)
if(DLINK_STATIC_DEPS)
  target_link_libraries(dlink_fmt INTERFACE fmt::fmt-header-only)
  # spdlog without SPDLOG_COMPILED_LIB is header-only; its fmt is Debian's.
  get_target_property(DLINK_SPDLOG_INCLUDES spdlog::spdlog INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(dlink_spdlog INTERFACE ${DLINK_SPDLOG_INCLUDES})
  target_compile_definitions(dlink_spdlog INTERFACE SPDLOG_FMT_EXTERNAL)
  target_link_libraries(dlink_spdlog INTERFACE fmt::fmt-header-only)
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
  target_link_libraries(dlink_fmt INTERFACE fmt::fmt)
  target_link_libraries(dlink_spdlog INTERFACE spdlog::spdlog)
  target_link_libraries(dlink_compression INTERFACE PkgConfig::ZSTD PkgConfig::LZ4 PkgConfig::XXHASH)
endif()

if(DLINK_MIMALLOC)
  find_package(mimalloc REQUIRED) # the dlink executable's malloc (src/CMakeLists.txt)
endif()
if(DLINK_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
