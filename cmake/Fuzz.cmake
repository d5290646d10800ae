# DLINK_FUZZ=ON: every dlink target is compiled with libFuzzer coverage
# instrumentation, AddressSanitizer and UndefinedBehaviorSanitizer (any UB is
# fatal: -fno-sanitize-recover=all), and tests/fuzz builds one libFuzzer
# binary per input reader plus a whole-link target. Needs clang (libFuzzer
# ships with it); configure a separate build directory, e.g.
#   cmake -S . -B build-fuzz -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DDLINK_FUZZ=ON -DDLINK_BUILD_TESTS=OFF
# tools/fuzz does this. See docs/fuzzing.md.
if(NOT DLINK_FUZZ)
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "DLINK_FUZZ=ON needs clang (libFuzzer); configure with -DCMAKE_CXX_COMPILER=clang++ "
                      "(found ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER})")
endif()
if(DLINK_SANITIZE)
  message(FATAL_ERROR "DLINK_FUZZ=ON already enables ASan+UBSan; leave DLINK_SANITIZE off")
endif()
set(DLINK_FUZZ_SANITIZERS address,undefined)
add_compile_options(-fsanitize=fuzzer-no-link,${DLINK_FUZZ_SANITIZERS} -fno-sanitize-recover=all
                    -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=${DLINK_FUZZ_SANITIZERS})
