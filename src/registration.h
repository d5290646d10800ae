// --register-link-binaries FILE: the list of device-code objects nvcc's
// link stub must register (formats.md §1.2, docs/notes/inputs.md §9).
//
// Written byte-identical to nvlink 13.0.88:
//   #define NUM_PRELINKED_OBJECTS <n>\n
//   DEFINE_REGISTER_FUNC(<id>)\n            (n lines)
// with one line per host object read that has a __nv_relfatbin section
// (input files and archive members actually taken, in link order, even when
// the object had no code for -arch), one per __nv_module_id string (an
// `ld -r` object has several; all are listed although only the first
// container's code is linked); .cubin, .fatbin and .ptx files given by path get an
// id made from their absolute path (cwd + "/" + path as written, not
// normalised) with every character other than [A-Za-z0-9] replaced by '_'.
// nvlink writes the file as the very last step, also when the link ended
// with errors (exit 255) after the inputs were read; not after a fatal error
// or errors while reading inputs.
#pragma once

#include "link_context.h"

#include <string>
#include <string_view>

namespace dlink {

// The id nvlink invents for a device-code file without a module id.
std::string registration_id_for_path(std::string_view path);

// The file's contents for `ids`.
std::string registration_file_text(const std::vector<std::string> &ids);

// Writes ctx.opts.register_link_binaries (when given) from
// ctx.link_binary_ids. Fatal "Could not open output file '<f>'" on failure.
void write_registration_file(Context &ctx);

} // namespace dlink
