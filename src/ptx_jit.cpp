// PTX -> cubin with the toolkit's ptxas (ptx_jit.h).
#include "ptx_jit.h"
#include "debug_link.h"

#include "dlink/fatbin.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace dlink {

namespace {

namespace fs = std::filesystem;

// The name nvlink's in-process ptxas gives its input in messages.
constexpr const char *kPtxFileName = "application ptx input";
// ptxas's default output name, which nvlink's in-process compiler records
// as the object name in debug (-g) cubins; so no -o is given.
constexpr const char *kCubinFileName = "elf.o";
// Debug compilations record the input file name in the cubin's tkinfo note;
// nvlink compiles from memory, so dlink passes small debug PTX as a string
// (--input-as-string) and larger ones as a file (one argument is limited to
// 128 KiB on Linux).
constexpr size_t kMaxPtxArgument = 120 * 1024;

bool is_executable_file(const fs::path &p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::string env(const char *name) {
  const char *v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// argv[0] of this process, as invoked (the driver does not pass it down).
std::string own_argv0() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string arg0;
  std::getline(in, arg0, '\0');
  return arg0;
}

std::optional<fs::path> search_path(const std::string &name) {
  std::string path = env("PATH");
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    fs::path p = fs::path(dir.empty() ? "." : dir) / name;
    if (is_executable_file(p))
      return p;
  }
  return std::nullopt;
}

// Directories to look for ptxas in, in order (see ptx_jit.h).
std::vector<fs::path> candidate_dirs() {
  std::vector<fs::path> dirs;
  std::string arg0 = own_argv0();
  if (!arg0.empty()) {
    std::optional<fs::path> self;
    if (arg0.find('/') != std::string::npos)
      self = fs::path(arg0);
    else
      self = search_path(arg0);
    if (self) {
      dirs.push_back(self->parent_path().empty() ? fs::path(".") : self->parent_path());
      std::error_code ec;
      fs::path real = fs::canonical(*self, ec);
      if (!ec)
        dirs.push_back(real.parent_path());
    }
  }
  if (std::string cuda = env("CUDA_HOME"); !cuda.empty())
    dirs.push_back(fs::path(cuda) / "bin");
  dirs.push_back("/usr/local/cuda/bin");
  return dirs;
}

std::string read_text_file(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// A private directory, removed with everything in it when this goes away.
class TempDir {
public:
  TempDir() {
    std::string base = env("TMPDIR");
    if (base.empty())
      base = "/tmp";
    std::string tmpl = base + "/dlink-ptx.XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    if (::mkdtemp(buf.data()))
      path_ = buf.data();
  }
  ~TempDir() {
    if (!path_.empty()) {
      std::error_code ec;
      fs::remove_all(path_, ec);
    }
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  bool ok() const { return !path_.empty(); }
  const fs::path &path() const { return path_; }

private:
  fs::path path_;
};

struct RunResult {
  bool started = false;
  int status = -1; // exit status, or 128 + signal
  std::string output; // stdout and stderr together
};

// Runs `exe args...` in `dir` with stdout+stderr going to a log file there.
RunResult run_in_dir(const std::string &exe, const std::vector<std::string> &args,
                     const fs::path &dir) {
  RunResult r;
  fs::path log = dir / "ptxas.log";
  std::vector<std::string> argv_s;
  argv_s.push_back(exe);
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char *> argv;
  for (std::string &s : argv_s)
    argv.push_back(s.data());
  argv.push_back(nullptr);

  pid_t pid = ::fork();
  if (pid < 0)
    return r;
  if (pid == 0) {
    if (::chdir(dir.c_str()) != 0)
      ::_exit(127);
    // (Only async-signal-safe calls after fork: other threads of the link
    // may hold the allocator's locks.)
    int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
    if (fd < 0)
      ::_exit(127);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
    ::execv(exe.c_str(), argv.data());
    ::_exit(127);
  }
  int wstatus = 0;
  while (::waitpid(pid, &wstatus, 0) < 0) {
    if (errno != EINTR)
      return r;
  }
  r.started = true;
  if (WIFEXITED(wstatus))
    r.status = WEXITSTATUS(wstatus);
  else if (WIFSIGNALED(wstatus))
    r.status = 128 + WTERMSIG(wstatus);
  r.output = read_text_file(log);
  return r;
}

std::vector<std::string> split_blanks(std::string_view s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!cur.empty())
        out.push_back(std::move(cur));
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  if (!cur.empty())
    out.push_back(std::move(cur));
  return out;
}

} // namespace

std::optional<std::string> find_ptxas() {
  if (std::string explicit_path = env("DLINK_PTXAS"); !explicit_path.empty())
    return is_executable_file(explicit_path) ? std::optional<std::string>(explicit_path)
                                             : std::nullopt;
  for (const fs::path &dir : candidate_dirs())
    if (is_executable_file(dir / "ptxas"))
      return (dir / "ptxas").string();
  if (auto p = search_path("ptxas"))
    return p->string();
  return std::nullopt;
}

std::vector<std::string> ptxas_arguments(const Context &ctx, std::string_view entry_options) {
  // ptxas knows sm_XXa targets; family targets compile for the plain sm
  // (nvlink: -arch=sm_100f JITs with "-arch sm_100").
  Arch target = ctx.arch;
  target.kind = Arch::Kind::Sm;
  if (target.variant == Arch::Variant::Family)
    target.variant = Arch::Variant::None;
  std::vector<std::string> args = {"-arch", target.name(), "-m64", "-c"};
  for (std::string &o : split_blanks(entry_options))
    args.push_back(std::move(o));
  // nvlink -g compiles every PTX input for debugging (its JIT cubins carry
  // "-g" in their tkinfo note and full DWARF; PTX without .loc/.file draws
  // ptxas's ".debug_abbrev section not found" warnings, as with nvlink).
  if (writes_debug_info(ctx) &&
      std::find(args.begin(), args.end(), "-g") == args.end())
    args.push_back("-g");
  for (const std::string &o : ctx.opts.xptxas)
    args.push_back(o);
  if (!ctx.opts.maxrregcount.empty()) {
    args.push_back("-maxrregcount");
    args.push_back(ctx.opts.maxrregcount);
  }
  // nvlink's own -device-stack-protector=<v> reaches its in-process ptxas
  // (recorded as "-device-stack-protector <v>" in the JIT cubin's tkinfo
  // note) after the -Xptxas options: a different -Xptxas value gives
  // ptxas's "incompatible redefinition" warning and nvlink's value wins.
  if (ctx.opts.device_stack_protector_given)
    args.push_back(std::string("--device-stack-protector=") +
                   (ctx.opts.device_stack_protector ? "true" : "false"));
  return args;
}

PtxasRun run_ptxas(const Context &ctx, std::string_view ptx, std::string_view entry_options) {
  PtxasRun run;
  std::optional<std::string> ptxas = find_ptxas();
  if (!ptxas) {
    run.status = PtxasRun::Status::NoPtxas;
    return run;
  }
  run.ptxas = *ptxas;
  TempDir dir;
  if (!dir.ok()) {
    run.status = PtxasRun::Status::NoTempDir;
    return run;
  }
  {
    std::ofstream f(dir.path() / kPtxFileName, std::ios::binary);
    f.write(ptx.data(), static_cast<std::streamsize>(ptx.size()));
    if (!f) {
      run.status = PtxasRun::Status::WriteFailed;
      return run;
    }
  }
  std::vector<std::string> args = ptxas_arguments(ctx, entry_options);
  bool debug = false;
  for (const std::string &a : args)
    debug |= a == "-g" || a == "--device-debug";
  if (debug && ptx.size() <= kMaxPtxArgument) {
    args.push_back("--input-as-string");
    args.push_back(std::string(ptx));
  } else {
    args.push_back(kPtxFileName);
  }
  RunResult r = run_in_dir(*ptxas, args, dir.path());
  if (!r.started) {
    run.error = errno;
    run.status = PtxasRun::Status::NotStarted;
    return run;
  }
  run.output = std::move(r.output);
  run.exit_status = r.status;
  if (r.status == 0)
    run.cubin = read_text_file(dir.path() / kCubinFileName);
  run.status = PtxasRun::Status::Ran;
  return run;
}

std::span<const u8> commit_ptxas_run(Context &ctx, const PtxasRun &run, std::string_view what) {
  switch (run.status) {
  case PtxasRun::Status::NoPtxas:
    ctx.diag.fatal(fmt::format(
        "'{}' contains PTX that must be compiled, but ptxas was not found (looked next to "
        "this program, in $CUDA_HOME/bin, /usr/local/cuda/bin and PATH; set DLINK_PTXAS or "
        "CUDA_HOME)",
        what));
  case PtxasRun::Status::NoTempDir:
    ctx.diag.fatal(fmt::format("Could not create a temporary directory to compile the PTX of '{}'",
                               what));
  case PtxasRun::Status::WriteFailed:
    ctx.diag.fatal(fmt::format("Could not write a temporary file to compile the PTX of '{}'",
                               what));
  case PtxasRun::Status::NotStarted:
    ctx.diag.fatal(fmt::format("Could not run '{}' to compile the PTX of '{}': {}", run.ptxas,
                               what, std::strerror(run.error)));
  case PtxasRun::Status::Ran:
    break;
  }
  ctx.diag.stream() << run.output;
  if (run.exit_status == 127 && run.output.empty())
    ctx.diag.fatal(fmt::format("Could not run '{}' to compile the PTX of '{}'", run.ptxas, what));
  if (run.exit_status != 0)
    ctx.diag.fatal(nvlink_msg::kFatbinaryError);
  if (run.cubin.empty())
    ctx.diag.fatal(nvlink_msg::kFatbinaryError);
  return ctx.arena.copy({reinterpret_cast<const u8 *>(run.cubin.data()), run.cubin.size()});
}

std::span<const u8> jit_compile_ptx(Context &ctx, std::string_view ptx,
                                    std::string_view entry_options, std::string_view what) {
  return commit_ptxas_run(ctx, run_ptxas(ctx, ptx, entry_options), what);
}

} // namespace dlink
