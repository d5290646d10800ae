# Opt-in benchmark target: `cmake --build <dir> --target bench` (or `ninja bench`) builds
# dlink and runs tools/bench against the real nvlink (needs CUDA_HOME or /usr/local/cuda).
# Not part of `all` and not a test. Pass options through BENCH_ARGS, e.g.
#   cmake -DBENCH_ARGS="--quick" ...      or      cmake -DBENCH_ARGS="--sizes;50,100"
# Included from the top-level CMakeLists.txt after add_subdirectory(src).
find_package(Python3 COMPONENTS Interpreter QUIET)
if(Python3_Interpreter_FOUND AND TARGET dlink)
  set(BENCH_ARGS "" CACHE STRING "extra arguments for tools/bench (a CMake list)")
  add_custom_target(bench
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/tools/bench
            --dlink $<TARGET_FILE:dlink>
            --markdown ${CMAKE_CURRENT_BINARY_DIR}/bench.md ${BENCH_ARGS}
    DEPENDS dlink
    WORKING_DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}
    USES_TERMINAL
    COMMENT "dlink vs nvlink benchmark (tools/bench); report in bench.md")
endif()
