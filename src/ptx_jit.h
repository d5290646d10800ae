// PTX inputs: compiling PTX to a relocatable cubin with the toolkit's ptxas.
//
// nvlink JIT-compiles PTX (raw .ptx files, compute_XX fatbin entries) in
// process; its result is byte-identical to
//   ptxas -arch sm_XX -m64 -c <entry options> <-Xptxas options> [-maxrregcount N]
// run on the PTX (docs/notes/inputs.md "JIT of PTX entries"). dlink runs that
// ptxas. It is looked up, in order:
//   1. $DLINK_PTXAS (a path to the ptxas binary; for tests and unusual setups);
//   2. the directory of argv[0] as invoked (found through PATH when argv[0]
//      has no '/'), then the directory of argv[0] with symlinks resolved —
//      in a shadow toolkit (tools/nvlink-shadow) bin/nvlink is dlink and
//      bin/ptxas is the real one;
//   3. $CUDA_HOME/bin, then /usr/local/cuda/bin;
//   4. PATH.
// ptxas runs in a private temporary directory (removed afterwards) on a file
// named "application ptx input", so its messages name the input as nvlink's
// in-process compiler does ("ptxas application ptx input, line 26; error ...").
#pragma once

#include "link_context.h"

#include <optional>
#include <string>
#include <string_view>

namespace dlink {

// The ptxas dlink would run, or nullopt when none is found.
std::optional<std::string> find_ptxas();

// Compiles `ptx` for ctx.arch. `entry_options` is the option string of the
// fatbin entry ("--compile-only  ", empty for raw .ptx files). ptxas's own
// output (warnings, -v info) is copied to the diagnostics stream. Failures
// are fatal: nvlink's "elfLink fatbinary error" after ptxas's messages, or a
// clear message when ptxas cannot be found or run. `what` names the input in
// dlink's own messages. Returns the cubin bytes (arena memory).
std::span<const u8> jit_compile_ptx(Context &ctx, std::string_view ptx,
                                    std::string_view entry_options, std::string_view what);

// One ptxas run, without any message: what jit_compile_ptx reports comes
// from it (commit_ptxas_run). run_ptxas only reads the context, so that
// several PTX inputs can be compiled at once (input_files.cpp) and their
// messages still appear in link order.
struct PtxasRun {
  enum class Status { NoPtxas, NoTempDir, WriteFailed, NotStarted, Ran };
  Status status = Status::NoPtxas;
  std::string ptxas;   // the ptxas run
  int error = 0;       // errno when it could not be started
  int exit_status = -1;
  std::string output;  // its stdout and stderr
  std::string cubin;   // its output file (exit status 0)
};
PtxasRun run_ptxas(const Context &ctx, std::string_view ptx, std::string_view entry_options);
// Reports `run` as jit_compile_ptx does and returns the cubin (arena memory).
std::span<const u8> commit_ptxas_run(Context &ctx, const PtxasRun &run, std::string_view what);

// The ptxas argument list (without argv[0], input and output file names)
// for the current link: "-arch", target, "-m64", "-c", entry options split at
// blanks, -Xptxas values, then "-maxrregcount N" when given.
std::vector<std::string> ptxas_arguments(const Context &ctx, std::string_view entry_options);

} // namespace dlink
