// Device link-time optimisation (-lto / -dlto): what dlink does with inputs
// built by `nvcc -dlto` (docs/notes/lto.md has the measurements).
//
// nvlink -dlto hands the LTO IR (fatbin entries of kind 8, "lto_XX") of every
// LTO input to libNVVM, with the compile options
//   -arch=compute_XX -link-lto --device-c -has-global-host-info
// and compiles the PTX it gets back with `ptxas -arch sm_XX -m64` (a
// whole-program compile, no -c); that ptxas output is nvlink's image, byte
// for byte. The modules do not go through the public libNVVM API
// (nvvmAddModuleToProgram): nvlink reaches libNVVM's internal entry points,
// and the public API rejects LTO IR in every form ("parse expected
// top-level entity", with or without -link-lto). dlink uses only public
// interfaces, so it cannot run that optimiser. What it does instead:
//
//   * no LTO input (every linked input is a cubin, PTX or non-LTO object):
//     nvlink's behaviour exactly — an info line per linked input ("requested
//     LTO but 'x.o' not built for LTO so doing partial LTO"), the warning
//     "Ignoring -dlto option because no LTO objects found", then the normal
//     link; byte-identical.
//   * LTO inputs that also carry PTX (nvcc -dlto embeds both by default) or a
//     cubin for the target: nvlink's libcudadevrt check ("expected libcudadevrt
//     object"), then ONE warning, and that code is linked as nvlink links these
//     objects without -dlto: a correct image without link-time optimisation,
//     not nvlink's bytes (nvlink prefers the LTO IR even over a cubin).
//   * an LTO input with no usable PTX: a fatal error naming it; no output.
//
// libNVVM itself is therefore never loaded; nvlink's own requirement that
// <nvvmpath>/lib64/libnvvm.so loads ("elfLink linker library load error")
// is not reproduced: dlink needs no libNVVM.
#pragma once

#include "link_context.h"

#include "dlink/fatbin.h"

#include <span>
#include <string_view>

namespace dlink::lto {

// The LTO-IR entry nvlink would use for `target` (lto_XX with XX <= the
// target, arch-specific and family entries as for PTX), or nullptr.
const FatbinEntry *select_ltoir_entry(std::span<const FatbinEntry> entries, const Arch &target);

// read_inputs calls this for every input whose device code joins the link,
// before compiling or adding it; `lto_object`: it carries usable LTO IR.
// Under -lto a non-LTO input that is not libcudadevrt gets nvlink's
// "partial LTO" info line.
void linked_input(Context &ctx, std::string_view name, bool lto_object);

// read_inputs calls this when it reads a cudadevrt library (by path or -l).
void cudadevrt_seen(Context &ctx);

// An LTO input whose LTO IR dlink cannot compile and which carries no PTX for
// the target: fatal, naming the input.
[[noreturn]] void no_ptx_for_lto_input(Context &ctx, std::string_view name, const FatbinEntry &ir);

// After every input was read (-lto only): nvlink's "Ignoring -dlto" warning
// when there was no LTO input; else its libcudadevrt check and dlink's one
// warning that the PTX is linked without link-time optimisation.
void finish_inputs(Context &ctx);

} // namespace dlink::lto
