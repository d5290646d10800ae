// Stage 1: reading inputs.
#pragma once

#include "link_context.h"

namespace dlink {

// Opens every input named on the command line (and the -l libraries, after
// them), classifies it by extension and content as nvlink does (cubins, host
// objects, .fatbin, .ptx, archives; see input_files.cpp) and turns each
// device object into an InputObject in link order, compiling PTX with ptxas.
// Also records ctx.link_binary_ids (--register-link-binaries) and the
// host-reference information kernel pruning needs.
void read_inputs(Context &ctx);

// Whether nvlink treats the file at `path` as the cudadevrt system library:
// its base name contains "cudadevrt" (case-sensitive; libxcudadevrt.a,
// cudadevrt.a and a host object mycudadevrt.o do, libCUDADEVRT.a does not).
// For archive members, the archive's path counts.
bool is_cudadevrt_name(std::string_view path);

} // namespace dlink
