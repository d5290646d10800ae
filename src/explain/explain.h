// dlink's explanations of a link: --map, --why-extract, --trace-symbol (-y)
// and --resource-report (docs/explain-*.md). They read what the stages
// recorded (Context, InputObject::origin, the output ELF) once the link is
// over, successful or not, and write reports; they change no output byte
// and no stage depends on them.
#pragma once

#include "link_context.h"

#include <cstdio>
#include <string>
#include <vector>

namespace dlink {

// How the link ended.
struct LinkOutcome {
  int status = 0;          // the exit status the link returns
  bool fatal = false;      // ended by a fatal error
  bool image_built = false; // the output ELF was assembled (write_output ran)
  bool linked() const { return status == 0 && !fatal; }
};

struct ExplainState {
  struct Report {
    std::string path; // as given; "-" is stdout
    FILE *file = nullptr;
  };
  Report map, why_extract, resource_report;
  bool image_built = false;
};

// Before the link: opens the report files (an unwritable one is a fatal
// error, before any output is written). Does nothing without the options.
void open_explanations(Context &ctx);

// After the link (any outcome): writes the reports and the --trace-symbol
// lines (stdout). Never throws; a report that cannot be written is an error
// message, the link's status stays what it was.
void write_explanations(Context &ctx, LinkOutcome outcome);

// The texts (also used by the tests).
std::string describe_map(const Context &ctx, const LinkOutcome &outcome);
std::string describe_why_extract(const Context &ctx);
// One block per name; `unknown` gets the names no input mentions.
std::string describe_symbol_traces(const Context &ctx, const std::vector<std::string> &names,
                                   std::vector<std::string> &unknown);
std::string describe_resources(const Context &ctx, const LinkOutcome &outcome);

// Shared helpers.
std::string display_name(std::string_view mangled); // "name" or "name (demangled)"
std::string json_string(std::string_view s);

} // namespace dlink
