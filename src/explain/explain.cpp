// Opening and writing the explanation reports (explain.h).
#include "explain/explain.h"

#include "dlink/demangle.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <iostream>

namespace dlink {

namespace {

void open_report(const Context &ctx, ExplainState::Report &r, const std::string &path,
                 std::string_view what) {
  if (path.empty())
    return;
  // "%a" stands for the -arch value: nvcc runs one device link per target,
  // each with the same -Xnvlink options ("r.%a.json" -> "r.sm_90.json").
  r.path = path;
  for (size_t at = r.path.find("%a"); at != std::string::npos; at = r.path.find("%a", at))
    r.path.replace(at, 2, ctx.opts.arch_string), at += ctx.opts.arch_string.size();
  const std::string &name = r.path;
  if (name == "-") {
    r.file = stdout;
    return;
  }
  r.file = std::fopen(name.c_str(), "wb");
  if (!r.file)
    ctx.diag.fatal(fmt::format("Could not open {} file '{}': {}", what, name, std::strerror(errno)));
}

// Writes `text` and closes the file; false on a write error.
bool finish_report(ExplainState::Report &r, const std::string &text) {
  if (!r.file)
    return true;
  bool ok = std::fwrite(text.data(), 1, text.size(), r.file) == text.size();
  if (r.file == stdout)
    ok = std::fflush(stdout) == 0 && ok;
  else
    ok = std::fclose(r.file) == 0 && ok;
  r.file = nullptr;
  return ok;
}

} // namespace

void open_explanations(Context &ctx) {
  const Options &o = ctx.opts;
  if (o.map_file.empty() && o.why_extract_file.empty() && o.resource_report_file.empty() &&
      o.trace_symbols.empty())
    return;
  auto st = std::make_shared<ExplainState>();
  try {
    open_report(ctx, st->map, o.map_file, "map");
    open_report(ctx, st->why_extract, o.why_extract_file, "why-extract");
    open_report(ctx, st->resource_report, o.resource_report_file, "resource report");
  } catch (const FatalError &) {
    for (ExplainState::Report *r : {&st->map, &st->why_extract, &st->resource_report})
      if (r->file && r->file != stdout)
        std::fclose(r->file);
    throw; // (no report is written: the link did not start)
  }
  ctx.explain = std::move(st);
}

void write_explanations(Context &ctx, LinkOutcome outcome) {
  if (!ctx.explain)
    return;
  ExplainState &st = *ctx.explain;
  std::cout.flush();
  struct Job {
    ExplainState::Report *report;
    std::string_view option;
    std::string (*describe)(const Context &, const LinkOutcome &);
  };
  const Job jobs[] = {
      {&st.map, "--map", describe_map},
      {&st.why_extract, "--why-extract",
       [](const Context &c, const LinkOutcome &) { return describe_why_extract(c); }},
      {&st.resource_report, "--resource-report", describe_resources},
  };
  for (const Job &job : jobs) {
    if (!job.report->file)
      continue;
    std::string text;
    try {
      text = job.describe(ctx, outcome);
    } catch (const std::exception &e) {
      text = fmt::format("# {}: could not describe the link: {}\n", job.option, e.what());
    } catch (...) {
      text = fmt::format("# {}: could not describe the link\n", job.option);
    }
    std::string path = job.report->path;
    if (!finish_report(*job.report, text))
      ctx.diag.error(fmt::format("Could not write {} file '{}'", job.option.substr(2), path));
    else if (!outcome.linked() && path != "-")
      ctx.diag.info(fmt::format("{}: the link failed; '{}' holds what was known", job.option, path));
  }
  if (!ctx.opts.trace_symbols.empty()) {
    std::vector<std::string> unknown;
    std::string text;
    try {
      text = describe_symbol_traces(ctx, ctx.opts.trace_symbols, unknown);
    } catch (...) {
      text = "trace-symbol: could not describe the link\n";
    }
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    for (const std::string &name : unknown)
      ctx.diag.info(fmt::format("--trace-symbol: no input defines or references '{}'", name));
  }
}

std::string display_name(std::string_view mangled) {
  std::optional<std::string> d = demangle(mangled);
  if (!d || *d == mangled)
    return std::string(mangled);
  return fmt::format("{} ({})", mangled, *d);
}

std::string json_string(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    default:
      if (static_cast<unsigned char>(c) < 0x20)
        out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
      else
        out += c;
    }
  }
  return out + "\"";
}

} // namespace dlink
