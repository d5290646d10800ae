// --register-link-binaries (registration.h).
#include "registration.h"

#include <unistd.h>

#include <fstream>

namespace dlink {

std::string registration_id_for_path(std::string_view path) {
  std::string abs;
  if (!path.starts_with('/')) {
    std::vector<char> buf(4096);
    while (::getcwd(buf.data(), buf.size()) == nullptr && errno == ERANGE)
      buf.resize(buf.size() * 2);
    abs = buf.data();
    abs += '/';
  }
  abs += path;
  for (char &c : abs) {
    bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum)
      c = '_';
  }
  return abs;
}

std::string registration_file_text(const std::vector<std::string> &ids) {
  std::string out = fmt::format("#define NUM_PRELINKED_OBJECTS {}\n", ids.size());
  for (const std::string &id : ids)
    out += fmt::format("DEFINE_REGISTER_FUNC({})\n", id);
  return out;
}

void write_registration_file(Context &ctx) {
  const std::string &path = ctx.opts.register_link_binaries;
  if (path.empty())
    return;
  std::string text = registration_file_text(ctx.link_binary_ids);
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f)
    ctx.diag.fatal(fmt::format("Could not open output file '{}'", path));
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  f.close();
  if (!f)
    ctx.diag.fatal(fmt::format("Could not write output file '{}'", path));
}

} // namespace dlink
