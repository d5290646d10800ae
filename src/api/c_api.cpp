// The C interface of libdlink (include/dlink/dlink.h): one dlink_link holds
// one emulated command line, its memory inputs, the captured messages and,
// after the run, the image. dlink_run does what the dlink command does with
// that command line (src/main.cpp is a client of this file).
#include "dlink/dlink.h"

#include "dlink/diag.h"
#include "dlink/driver.h"
#include "dlink/log.h"
#include "dlink/options.h"

#include <cstdio>
#include <exception>
#include <iostream>
#include <memory>
#include <mutex>
#include <new>
#include <sstream>
#include <string>
#include <vector>

struct dlink_link {
  std::string argv0 = "nvlink";
  std::vector<std::string> arguments;
  std::vector<std::pair<std::string, std::vector<std::uint8_t>>> memory_inputs;
  bool output_to_memory = false;
  unsigned flags = 0;
  bool ran = false;

  std::vector<std::uint8_t> output;
  bool have_output = false;
  std::vector<dlink::DiagnosticRecord> records;
  std::string text; // every message as printed
};

namespace {

std::string basename_of(const std::string &path) {
  auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The messages' stream: keeps everything written to it and, when asked,
// writes it through to stderr at once (unbuffered, as std::cerr is).
class CaptureBuf : public std::streambuf {
public:
  CaptureBuf(std::string &text, bool to_stderr) : text_(text), to_stderr_(to_stderr) {}

protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof()))
      return traits_type::not_eof(c);
    char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
  }
  std::streamsize xsputn(const char *s, std::streamsize n) override {
    text_.append(s, static_cast<size_t>(n));
    if (to_stderr_)
      std::fwrite(s, 1, static_cast<size_t>(n), stderr);
    return n;
  }

private:
  std::string &text_;
  bool to_stderr_;
};

int run(dlink_link &l) {
  CaptureBuf buf(l.text, (l.flags & DLINK_DIAGNOSTICS_TO_STDERR) != 0);
  std::ostream out(&buf);
  dlink::Diagnostics diag(out);
  diag.tool = basename_of(l.argv0);
  diag.records = &l.records;
  std::vector<std::string> args;
  args.reserve(l.arguments.size() + 1);
  args.push_back(l.argv0);
  args.insert(args.end(), l.arguments.begin(), l.arguments.end());
  int status;
  try {
    dlink::Options opts = dlink::parse_command_line(args, diag);
    for (const auto &[name, bytes] : l.memory_inputs)
      opts.embedded.inputs.emplace(name, std::span<const std::uint8_t>(bytes));
    if (l.output_to_memory)
      opts.embedded.output = &l.output;
    if (opts.help) {
      std::cout << dlink::help_text(opts.program_name);
      status = 0;
    } else if (opts.version) {
      std::cout << dlink::version_text(opts.program_name);
      status = 0;
    } else if (!opts.gen_host_linker_script.empty()) {
      status = dlink::write_host_linker_script(opts, diag);
    } else {
      auto teardown = (l.flags & DLINK_LEAVE_STATE_TO_EXIT) ? dlink::Teardown::LeaveToExit
                                                            : dlink::Teardown::Full;
      status = dlink::link(opts, diag, teardown);
      l.have_output = l.output_to_memory && status == 0;
    }
  } catch (const dlink::FatalError &) {
    status = 1;
  } catch (const std::bad_alloc &) {
    try {
      diag.fatal("Memory allocation failure");
    } catch (const dlink::FatalError &) {
    }
    status = 1;
  } catch (const std::exception &e) {
    try {
      diag.fatal(std::string("internal error: ") + e.what());
    } catch (const dlink::FatalError &) {
    }
    status = 1;
  }
  out.flush();
  if (status != 0) {
    l.have_output = false;
    l.output.clear();
  }
  return status;
}

} // namespace

extern "C" {

const char *dlink_version(void) { return DLINK_VERSION; }

dlink_link *dlink_create(void) {
  static std::once_flag logging;
  std::call_once(logging, dlink::log::configure_from_environment); // DLINK_LOG
  return new (std::nothrow) dlink_link();
}

void dlink_destroy(dlink_link *link) { delete link; }

int dlink_set_program_name(dlink_link *link, const char *argv0) {
  if (!link || !argv0 || link->ran)
    return -1;
  link->argv0 = argv0;
  return 0;
}

int dlink_add_argument(dlink_link *link, const char *arg) {
  if (!link || !arg || link->ran)
    return -1;
  link->arguments.emplace_back(arg);
  return 0;
}

int dlink_add_input(dlink_link *link, const char *name, const void *data, size_t size) {
  if (!link || !name || (!data && size) || link->ran)
    return -1;
  const auto *bytes = static_cast<const std::uint8_t *>(data);
  link->memory_inputs.emplace_back(name, std::vector<std::uint8_t>(bytes, bytes + size));
  link->arguments.emplace_back(name);
  return 0;
}

int dlink_set_output_to_memory(dlink_link *link, int on) {
  if (!link || link->ran)
    return -1;
  link->output_to_memory = on != 0;
  return 0;
}

int dlink_set_flags(dlink_link *link, unsigned flags) {
  if (!link || link->ran)
    return -1;
  link->flags = flags;
  return 0;
}

int dlink_run(dlink_link *link) {
  if (!link || link->ran)
    return -1;
  link->ran = true;
  return run(*link);
}

const void *dlink_output(const dlink_link *link, size_t *size) {
  if (!link || !link->have_output) {
    if (size)
      *size = 0;
    return nullptr;
  }
  if (size)
    *size = link->output.size();
  return link->output.data();
}

size_t dlink_diagnostic_count(const dlink_link *link) { return link ? link->records.size() : 0; }

dlink_severity dlink_diagnostic_severity(const dlink_link *link, size_t index) {
  if (!link || index >= link->records.size())
    return DLINK_FATAL;
  return static_cast<dlink_severity>(link->records[index].severity);
}

const char *dlink_diagnostic_message(const dlink_link *link, size_t index) {
  if (!link || index >= link->records.size())
    return nullptr;
  return link->records[index].message.c_str();
}

const char *dlink_diagnostics_text(const dlink_link *link) { return link ? link->text.c_str() : ""; }

} // extern "C"
