// Per-function resources read back from a cubin (CUDA device ELF): what
// `--resource-report` (src/explain/resource_report.cpp) and `dlink-dump
// --res-usage` print. Everything comes from the file itself: EIATTR records
// of .nv.info and .nv.info.<f>, the sizes of .nv.shared.<k> and
// .nv.constant<N>.<k>, and the .nv.callgraph blocks. Works on executable
// cubins (a link's output) and on relocatable ones (compiler output: there
// a function's stack is ptxas's MAX_STACK_SIZE, no link-time value).
//
// Total on malformed input: records or sections that cannot be decoded are
// skipped (the caller can say so through `notes`).
#pragma once

#include "dlink/elf.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace dlink {

struct FunctionResources {
  std::string name;
  u32 symbol = 0;       // .symtab index
  bool kernel = false;  // STO_CUDA_ENTRY
  u32 registers = 0;    // EIATTR_REGCOUNT (a kernel's: with its callees after a link)
  u32 frame = 0;        // EIATTR_FRAME_SIZE: the function's own local frame
  // The stack the file records: MIN_STACK_SIZE (kernels of a linked cubin,
  // callees included) or MAX_STACK_SIZE (relocatable cubins). 0xffffffff:
  // not statically known (recursion). Absent: no record.
  std::optional<u32> stack;
  u32 barriers = 0;                      // EIATTR_NUM_BARRIERS
  std::optional<std::array<u32, 3>> max_threads; // EIATTR_MAX_THREADS (__launch_bounds__)
  std::optional<std::array<u32, 3>> reqntid;     // EIATTR_REQNTID
  std::optional<u32> max_registers;     // EIATTR_MAXREG_COUNT (set by launch bounds / -maxrregcount)
  std::optional<u32> param_bytes;       // EIATTR_CBANK_PARAM_SIZE
  u64 shared_static = 0;                // size of .nv.shared.<k>
  std::vector<std::pair<u32, u64>> constant_banks; // (N, size) of .nv.constant<N>.<k>
  std::vector<std::string> callees;     // direct, then those its indirect calls may reach (same prototype)
};

struct CubinResources {
  u32 sm = 0;
  bool executable = false;
  u64 global_bytes = 0;  // .nv.global + .nv.global.init
  std::vector<std::pair<u32, u64>> module_constant_banks; // (N, size) of .nv.constant<N>
  std::vector<FunctionResources> functions; // symbol-table order
  std::vector<std::string> notes;           // what could not be decoded
};

CubinResources analyze_cubin_resources(const ElfFile &file);

// The call path from `kernel` that sets its stack: each function with its
// own frame, deepest last. Empty when the graph has a cycle on the way, or
// when the sum of the frames does not equal the recorded stack (then the
// path would be a guess).
struct StackStep {
  std::string function;
  u32 frame = 0;
};
std::vector<StackStep> deepest_stack_path(const CubinResources &res, const FunctionResources &kernel);

// Whether a call cycle is reachable from `f`.
bool reaches_recursion(const CubinResources &res, const FunctionResources &f);

// Both questions for every function of `res` at once (linear in the call
// graph; the functions above build one per call). `res` must outlive it and
// the functions asked about must be elements of res.functions.
class StackAnalysis {
public:
  explicit StackAnalysis(const CubinResources &res);
  bool recursive(const FunctionResources &f) const;
  std::vector<StackStep> deepest_path(const FunctionResources &kernel) const;

private:
  static constexpr size_t kNone = ~size_t{0};
  size_t index_of(const FunctionResources &f) const;
  const CubinResources &res_;
  std::vector<bool> cyclic_;
  std::vector<u64> deepest_;
  std::vector<size_t> next_;
};

// cuobjdump -res-usage style text for one cubin ("Resource usage:" block).
std::string format_res_usage(const CubinResources &res);

} // namespace dlink
