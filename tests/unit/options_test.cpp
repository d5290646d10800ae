// The nvlink command line (options.h). Every expected text and every
// canonical command line below was produced by the real nvlink 13.0.88
// (the canonical ones read back from the .note.nv.tkinfo note of its output
// for the same argv, linking a one-kernel sm_90 cubin k.cubin). The rules are
// summarised in src/options.cpp and docs/notes/command-line.md.
#include "dlink/options.h"

#include <fmt/ranges.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace dlink {
namespace {

namespace fs = std::filesystem;

struct Result {
  Options opts;
  std::string messages; // everything the Diagnostics engine printed
  bool fatal = false;
  int errors = 0;
};

Result run(std::vector<std::string> args, std::string argv0 = "nvlink") {
  args.insert(args.begin(), std::move(argv0));
  std::ostringstream out;
  Diagnostics diag(out);
  Result r;
  try {
    r.opts = parse_command_line(args, diag);
  } catch (const FatalError &) {
    r.fatal = true;
  }
  r.messages = out.str();
  r.errors = diag.error_count();
  return r;
}

// Splits at spaces (for argv without spaces in words).
std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> w;
  std::istringstream in{std::string(s)};
  for (std::string x; in >> x;)
    w.push_back(x);
  return w;
}

std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

std::string fatal_text(std::string_view msg) { return "nvlink fatal   : " + std::string(msg) + "\n"; }

// A scratch directory for options files; removed at the end of the test.
class TempDir {
public:
  TempDir() {
    path_ = fs::temp_directory_path() / ("dlink_options_test_" + std::to_string(::getpid()) + "_" +
                                         std::to_string(counter_++));
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string write(const std::string &name, std::string_view text) const {
    fs::path p = path_ / name;
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }
  const fs::path &path() const { return path_; }

private:
  fs::path path_;
  static inline int counter_ = 0;
};

// ---------------------------------------------------------------- spelling

TEST(Options, ProgramNameIsBasenameOfArgv0) {
  EXPECT_EQ(run({"-h"}, "/usr/local/cuda/bin/nvlink").opts.program_name, "nvlink");
  EXPECT_EQ(run({"-h"}, "./build/bin/dlink").opts.program_name, "dlink");
  EXPECT_EQ(run({"-h"}, "mylink").opts.program_name, "mylink");
}

TEST(Options, ValueSpellings) {
  for (auto args : {words("-arch=sm_80 -o=a.cubin k.cubin"), words("--arch=sm_80 --output-file=a.cubin k.cubin"),
                    words("-arch sm_80 -o a.cubin k.cubin"), words("--arch sm_80 --output-file a.cubin k.cubin")}) {
    Result r = run(args);
    ASSERT_FALSE(r.fatal) << r.messages;
    EXPECT_EQ(r.opts.arch_string, "sm_80");
    ASSERT_TRUE(r.opts.arch);
    EXPECT_EQ(r.opts.arch->sm, 80u);
    EXPECT_EQ(r.opts.output_file, "a.cubin");
    EXPECT_EQ(r.opts.input_files, std::vector<std::string>{"k.cubin"});
    EXPECT_EQ(r.messages, "");
  }
}

TEST(Options, LongNamesOnlyWithTwoDashesShortOnlyWithOne) {
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -output-file y")).messages, fatal_text("Unknown option 'output-file'"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin --o y")).messages, fatal_text("Unknown option '-o'"));
  EXPECT_EQ(run(words("--optf o1.txt")).messages, fatal_text("Unknown option '-optf'"));
  EXPECT_EQ(run(words("--Werror")).messages, fatal_text("Unknown option '-Werror'"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin --g")).messages, fatal_text("Unknown option '-g'"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -debug")).messages, fatal_text("Unknown option 'debug'"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -help")).messages, fatal_text("Unknown option 'help'"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -version")).messages, fatal_text("Unknown option 'version'"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin --V")).messages, fatal_text("Unknown option '-V'"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin --lfoo")).messages, fatal_text("Unknown option '-lfoo'"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin --m64")).messages, fatal_text("Unknown option '-m64'"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin --l foo")).messages, fatal_text("Unknown option '-l'"));
  // --register-link-binaries and --host-linker-options have no short form.
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -register-link-binaries r")).messages,
            fatal_text("Unknown option 'register-link-binaries'"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -host-linker-options x")).messages,
            fatal_text("Unknown option 'host-linker-options'"));
}

TEST(Options, UnknownOptionText) {
  // One leading '-' stripped, cut at '='.
  EXPECT_EQ(run({"--bogus"}).messages, fatal_text("Unknown option '-bogus'"));
  EXPECT_EQ(run(words("-bogus k.cubin -o out.cubin -arch sm_90")).messages, fatal_text("Unknown option 'bogus'"));
  EXPECT_EQ(run({"--bogus=3"}).messages, fatal_text("Unknown option '-bogus'"));
  EXPECT_EQ(run({"-bogus=3"}).messages, fatal_text("Unknown option 'bogus'"));
  EXPECT_EQ(run({"--"}).messages, fatal_text("Unknown option '-'"));
  EXPECT_EQ(run({"---v"}).messages, fatal_text("Unknown option '--v'"));
  EXPECT_EQ(run({"-=3"}).messages, fatal_text("Unknown option ''"));
  EXPECT_EQ(run({"--=3"}).messages, fatal_text("Unknown option '-'"));
  EXPECT_EQ(run({"-ofile"}).messages, fatal_text("Unknown option 'ofile'"));
  EXPECT_EQ(run({"-archsm_80"}).messages, fatal_text("Unknown option 'archsm_80'"));
  EXPECT_EQ(run({"-ofc"}).messages, fatal_text("Unknown option 'ofc'"));
  EXPECT_EQ(run({"--dump-perf-stats"}).messages, fatal_text("Unknown option '-dump-perf-stats'"));
}

TEST(Options, InputsIncludeDashAndEmpty) {
  Result r = run({"-arch", "sm_90", "-o", "x", "-", "", "a.o"});
  ASSERT_FALSE(r.fatal);
  EXPECT_EQ(r.opts.input_files, (std::vector<std::string>{"-", "", "a.o"}));
}

TEST(Options, SeparateValueIsTakenWhateverItLooksLike) {
  Result r = run(words("-arch sm_90 -o -v k.cubin"));
  ASSERT_FALSE(r.fatal);
  EXPECT_EQ(r.opts.output_file, "-v");
  EXPECT_FALSE(r.opts.verbose);
  EXPECT_EQ(run(words("-arch -o x k.cubin")).messages, fatal_text("Value '-o' is not defined for option 'arch'"));
}

TEST(Options, JoinedValuesOnlyForLibraryPathAndMachine) {
  Result r = run(words("-lfoo -L. -m64 -arch sm_90 k.cubin -o out.cubin"));
  ASSERT_FALSE(r.fatal) << r.messages;
  EXPECT_EQ(r.opts.libraries, std::vector<std::string>{"foo"});
  EXPECT_EQ(r.opts.library_paths, std::vector<std::string>{"."});
  EXPECT_EQ(r.opts.machine, "64");
  // An option name wins over a joined value; otherwise the rest of the word,
  // '=' included, is the value.
  r = run(words("-arch sm_90 -o x k.cubin -nvvmpath n -lto -ltox -larch=sm_80 -lfoo=bar -L/a=b -l=baz -L=/tmp"));
  ASSERT_FALSE(r.fatal) << r.messages;
  EXPECT_TRUE(r.opts.lto);
  EXPECT_EQ(r.opts.libraries, (std::vector<std::string>{"tox", "arch=sm_80", "foo=bar", "baz"}));
  EXPECT_EQ(r.opts.library_paths, (std::vector<std::string>{"/a=b", "/tmp"}));
  EXPECT_EQ(run(words("-m6=4")).messages, fatal_text("'6=4': expected a number"));
  EXPECT_EQ(run(words("-mfoo")).messages, fatal_text("'foo': expected a number"));
  EXPECT_EQ(run(words("-m32")).messages, fatal_text("Value '32' is not defined for option 'machine'"));
}

TEST(Options, ListsSplitAtCommasAndAccumulate) {
  Result r = run({"-arch", "sm_90", "-o", "x", "k.cubin", "-l", "a,,b", "-l", "c,", "--library=d",
                  "-Xptxas", "-O3 -v,-lineinfo", "-Xptxas=-O2", "-kernels-used", "a,b",
                  "-kernels-used=c", "-variables-used", "x,y", "-Xnvvm", "-opt=3", "-La,b", "--library-path", "e"});
  ASSERT_FALSE(r.fatal) << r.messages;
  EXPECT_EQ(r.opts.libraries, (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(r.opts.library_paths, (std::vector<std::string>{"a", "b", "e"}));
  EXPECT_EQ(r.opts.xptxas, (std::vector<std::string>{"-O3 -v", "-lineinfo", "-O2"}));
  EXPECT_EQ(r.opts.xnvvm, std::vector<std::string>{"-opt=3"});
  EXPECT_EQ(r.opts.kernels_used, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(r.opts.variables_used, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(r.messages, "");
}

TEST(Options, OptionalValuesOfOfastCompileAndGhls) {
  Result r = run(words("-arch sm_90 -o x k.cubin -dlto -nvvmpath n -Ofc -v"));
  ASSERT_FALSE(r.fatal) << r.messages;
  EXPECT_EQ(r.opts.ofast_compile, "0");
  EXPECT_TRUE(r.opts.verbose);
  r = run(words("-arch sm_90 -o x k.cubin -dlto -nvvmpath n -Ofc max"));
  EXPECT_EQ(r.opts.ofast_compile, "max");
  // The next word is taken when it does not start with '-'.
  r = run(words("-arch sm_90 -o x k.cubin -dlto -nvvmpath n -Ofc k.cubin"));
  EXPECT_EQ(r.messages, fatal_text("Invalid argument for option '--Ofast-compile'"));
  r = run({"-arch", "sm_90", "-o", "x", "k.cubin", "-dlto", "-nvvmpath", "n", "-Ofc="});
  EXPECT_EQ(r.messages, fatal_text("Invalid argument for option '--Ofast-compile'"));
  r = run({"-ghls"});
  ASSERT_FALSE(r.fatal);
  EXPECT_EQ(r.opts.gen_host_linker_script, "lcs-abs");
  r = run({"-ghls", "-v"});
  EXPECT_EQ(r.opts.gen_host_linker_script, "lcs-abs");
  EXPECT_TRUE(r.opts.verbose);
  EXPECT_EQ(run({"-ghls", "lcs-aug", "-o", "x"}).opts.gen_host_linker_script, "lcs-aug");
  EXPECT_EQ(run({"-ghls="}).messages, fatal_text("Value '' is not defined for option 'gen-host-linker-script'"));
  EXPECT_EQ(run({"-ghls", "bad"}).messages, fatal_text("Value 'bad' is not defined for option 'gen-host-linker-script'"));
}

TEST(Options, HiddenOptions) {
  Result r = run(words("-arch sm_90 -o x k.cubin --host-ccbin gcc -shared --host-linker-options a "
                       "--host-linker-options b --allow-undefined-globals -force-rela"));
  ASSERT_FALSE(r.fatal) << r.messages;
  EXPECT_EQ(r.opts.host_ccbin, "gcc");
  EXPECT_TRUE(r.opts.shared);
  EXPECT_EQ(r.opts.host_linker_options, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(r.opts.allow_undefined_globals);
  EXPECT_TRUE(r.opts.force_rela);
  EXPECT_EQ(r.messages, "");
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -host-ccbin gcc")).opts.host_ccbin, "gcc");
  EXPECT_EQ(run(words("--shared=1")).messages, fatal_text("no argument expected after '--shared'"));
  EXPECT_EQ(run(words("--force-rela=1")).messages, fatal_text("no argument expected after '--force-rela'"));
  EXPECT_EQ(run(words("--host-ccbin")).messages, fatal_text("argument expected after '--host-ccbin'"));
  EXPECT_EQ(run(words("--host-linker-options")).messages, fatal_text("argument expected after '--host-linker-options'"));
}

// dlink's own developer options: accepted, never recorded in the canonical
// command line, absent from --help, off by default.
TEST(Options, DeveloperOptions) {
  Result plain = run(words("-arch sm_90 -o x k.cubin"));
  EXPECT_FALSE(plain.opts.dlink_time_passes);
  EXPECT_FALSE(plain.opts.dlink_no_refinalize);
  Result r = run(words("-arch sm_90 -o x k.cubin --dlink-time-passes -dlink-no-refinalize"));
  ASSERT_FALSE(r.fatal) << r.messages;
  EXPECT_TRUE(r.opts.dlink_time_passes);
  EXPECT_TRUE(r.opts.dlink_no_refinalize);
  EXPECT_EQ(r.messages, "");
  EXPECT_EQ(r.opts.canonical_command_line, plain.opts.canonical_command_line);
  EXPECT_EQ(help_text().find("dlink-"), std::string::npos);
}

TEST(Options, EveryDocumentedOptionIsAccepted) {
  Result r = run(words(
      "--arch sm_90 --output-file x k.cubin --debug --device-stack-protector true --disable-infos "
      "--disable-warnings --dump-callgraph --extra-warnings --ignore-host-info --keep-system-libraries "
      "--kernels-used k --library l --library-path p --link-time-opt --dlto --nvvmpath n --emit-ptx "
      "--Ofast-compile mid --machine 64 --maxrregcount 32 --preserve-relocs --register-link-binaries r "
      "--relocatable-link --report-arch --split-compile 2 --suppress-arch-warning --suppress-debug-info "
      "--suppress-stack-size-warning --time t --uidx-file u --variables-used v --verbose "
      "--warning-as-error --Xptxas -v --Xnvvm -v --cpu-arch X86_64 --split-compile-extended 3"));
  ASSERT_FALSE(r.fatal) << r.messages;
  const Options &o = r.opts;
  EXPECT_TRUE(o.debug && o.device_stack_protector && o.disable_infos && o.disable_warnings &&
              o.dump_callgraph && o.extra_warnings && o.ignore_host_info && o.keep_system_libraries &&
              o.lto && o.emit_ptx && o.preserve_relocs && o.relocatable && o.report_arch &&
              o.suppress_arch_warning && o.suppress_debug_info && o.suppress_stack_size_warning &&
              o.verbose && o.warning_as_error);
  EXPECT_EQ(o.nvvmpath, "n");
  EXPECT_EQ(o.ofast_compile, "mid");
  EXPECT_EQ(o.maxrregcount, "32");
  EXPECT_EQ(o.register_link_binaries, "r");
  EXPECT_EQ(o.split_compile, "2");
  EXPECT_EQ(o.split_compile_extended, "") << "cleared: -emit-ptx wins over -split-compile-extended";
  EXPECT_EQ(o.time_file, "t");
  EXPECT_EQ(o.uidx_file, "u");
  EXPECT_EQ(o.cpu_arch, "X86_64");
  EXPECT_EQ(run({"--help"}).opts.help, true);
  EXPECT_EQ(run({"--version"}).opts.version, true);
  EXPECT_EQ(run({"-V"}).opts.version, true);
  EXPECT_TRUE(run(words("-arch sm_90 -o x k.cubin --dump-callgraph-no-demangle")).opts.dump_callgraph_no_demangle);
  EXPECT_TRUE(run(words("-arch sm_90 -o x k.cubin --use-host-info")).opts.use_host_info);
  EXPECT_TRUE(run(words("-arch sm_90 -o x k.cubin -dlto -nvvmpath n")).opts.lto);
}

TEST(Options, EveryArchNameOfTheHelpTextIsAccepted) {
  std::string help = help_text();
  size_t begin = help.find("Allowed values for this option:  'compute_100'");
  size_t end = help.find("--cpu-arch");
  ASSERT_NE(begin, std::string::npos);
  int count = 0;
  for (size_t q = help.find('\'', begin); q < end; q = help.find('\'', q + 1)) {
    size_t close = help.find('\'', q + 1);
    std::string name = help.substr(q + 1, close - q - 1);
    q = close;
    Result r = run({"-arch", name, "-o", "x", "k.cubin"});
    std::optional<Arch> arch = r.opts.arch;
    if (name.starts_with("lto_")) {
      EXPECT_TRUE(r.fatal);
      EXPECT_EQ(r.messages, fatal_text("Link target of '" + name +
                                       "' is virtual target that is not JIT-able; use 'sm_' target instead"));
    } else {
      EXPECT_FALSE(r.fatal) << name << ": " << r.messages;
      ASSERT_TRUE(arch) << name;
      EXPECT_EQ(arch->name(), name);
    }
    count++;
  }
  EXPECT_EQ(count, 69);
}

// --------------------------------------------------------- redefinitions

TEST(Options, IncompatibleRedefinition) {
  const std::string warn = "nvlink warning : incompatible redefinition for option 'arch', the last value of this option was used\n";
  Result r = run(words("-arch sm_90 -arch=sm_80 -arch sm_90 -o out.cubin k.cubin"));
  ASSERT_FALSE(r.fatal);
  EXPECT_EQ(r.messages, warn + warn);
  EXPECT_EQ(r.opts.arch_string, "sm_90");
  // Same value: silent. Neither -w nor -Werror changes the warning.
  EXPECT_EQ(run(words("-arch sm_90 --arch=sm_90 -o out.cubin k.cubin")).messages, "");
  r = run(words("-w -Werror -arch sm_80 -arch sm_90 -o out.cubin k.cubin"));
  EXPECT_EQ(r.messages, warn);
  EXPECT_EQ(r.errors, 0);
  // Printed as read, before a later fatal problem.
  EXPECT_EQ(run(words("-arch sm_90 -arch sm_80 --bogus")).messages, warn + fatal_text("Unknown option '-bogus'"));
  // Integers compare by value.
  r = run(words("-arch sm_90 -o out.cubin k.cubin -maxrregcount 16 -maxrregcount 0x10"));
  EXPECT_EQ(r.messages, "");
  EXPECT_EQ(r.opts.maxrregcount, "16");
  // The long name is used.
  r = run(words("-m 64 -m 64 -arch sm_90 -cpu-arch X86 --cpu-arch X86 -Ofc max --Ofast-compile 0 -o x -o y "
                "-maxrregcount 3 -maxrregcount 4 -nvvmpath a -nvvmpath b -split-compile 1 -split-compile 2 "
                "-split-compile-extended 1 -split-compile-extended 2 -time a -time b -uidx a -uidx b "
                "-ghls lcs-abs -ghls lcs-aug --register-link-binaries a --register-link-binaries b "
                "--host-ccbin a --host-ccbin b -device-stack-protector true -device-stack-protector false"));
  std::string expected;
  for (const char *name : {"Ofast-compile", "output-file", "maxrregcount", "nvvmpath", "split-compile",
                           "split-compile-extended", "time", "uidx-file", "gen-host-linker-script",
                           "register-link-binaries", "host-ccbin", "device-stack-protector"})
    expected += fmt::format("nvlink warning : incompatible redefinition for option '{}', the last value of "
                            "this option was used\n",
                            name);
  EXPECT_EQ(r.messages, expected);
  EXPECT_FALSE(r.fatal);
  EXPECT_EQ(r.opts.output_file, "y");
  EXPECT_FALSE(r.opts.device_stack_protector);
  // Flags and lists never warn.
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -v -v -g -g -l a -l a")).messages, "");
}

// ------------------------------------------------------------- values

TEST(Options, IntegerValues) {
  auto value = [](const std::string &v) {
    Result r = run({"-arch", "sm_90", "-o", "x", "k.cubin", "-maxrregcount", v});
    return r.fatal ? r.messages : r.opts.maxrregcount;
  };
  EXPECT_EQ(value("32"), "32");
  EXPECT_EQ(value("0x10"), "16");
  EXPECT_EQ(value("0X1f"), "31");
  EXPECT_EQ(value("012"), "10");
  EXPECT_EQ(value(""), "0");
  EXPECT_EQ(value("00"), "0");
  EXPECT_EQ(value("+5"), "5");
  EXPECT_EQ(value(" 12"), "12");
  EXPECT_EQ(value("-0x80000000"), "-2147483648");
  EXPECT_EQ(value("0x7fffffff"), "2147483647");
  EXPECT_EQ(value("abc"), fatal_text("'abc': expected a number"));
  EXPECT_EQ(value("12abc"), fatal_text("'12abc': expected a number"));
  EXPECT_EQ(value("12 "), fatal_text("'12 ': expected a number"));
  EXPECT_EQ(value(" "), fatal_text("' ': expected a number"));
  EXPECT_EQ(value("08"), fatal_text("'08': expected a number"));
  EXPECT_EQ(value("0x"), fatal_text("'0x': expected a number"));
  EXPECT_EQ(value("1e3"), fatal_text("'1e3': expected a number"));
  EXPECT_EQ(value("-"), fatal_text("'-': expected a number"));
  EXPECT_EQ(value("2147483648"), fatal_text("32-bit integer value (2147483648) out of range"));
  EXPECT_EQ(value("-2147483649"), fatal_text("32-bit integer value (-2147483649) out of range"));
  EXPECT_EQ(value("0xffffffff"), fatal_text("32-bit integer value (0xffffffff) out of range"));
  EXPECT_EQ(value(" 4294967296"), fatal_text("32-bit integer value ( 4294967296) out of range"));
  EXPECT_EQ(value("99999999999999999999"), fatal_text("32-bit integer value (99999999999999999999) out of range"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -split-compile -3")).opts.split_compile, "-3");
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -split-compile x")).messages, fatal_text("'x': expected a number"));
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -split-compile-extended x")).messages,
            fatal_text("'x': expected a number"));
}

TEST(Options, MachineIsAnIntegerThatMustBe64) {
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -m 0x40")).opts.machine, "64");
  EXPECT_EQ(run({"-m", ""}).messages, fatal_text("Value '' is not defined for option 'machine'"));
  EXPECT_EQ(run({"-m", "064"}).messages, fatal_text("Value '064' is not defined for option 'machine'"));
  EXPECT_EQ(run({"-m", "32"}).messages, fatal_text("Value '32' is not defined for option 'machine'"));
  EXPECT_EQ(run({"--machine=32"}).messages, fatal_text("Value '32' is not defined for option 'machine'"));
  EXPECT_EQ(run({"-m", "-v"}).messages, fatal_text("'-v': expected a number"));
}

TEST(Options, EnumerationValues) {
  EXPECT_EQ(run({"-arch", "sm_999"}).messages, fatal_text("Value 'sm_999' is not defined for option 'arch'"));
  EXPECT_EQ(run({"-arch=sm_999"}).messages, fatal_text("Value 'sm_999' is not defined for option 'arch'"));
  EXPECT_EQ(run({"--arch=SM_90"}).messages, fatal_text("Value 'SM_90' is not defined for option 'arch'"));
  EXPECT_EQ(run(words("-arch=sm_80,sm_90 k.cubin -o x")).messages,
            fatal_text("Value 'sm_80,sm_90' is not defined for option 'arch'"));
  EXPECT_EQ(run(words("-arch= k.cubin -o out.cubin")).messages, fatal_text("Value '' is not defined for option 'arch'"));
  EXPECT_EQ(run({"-cpu-arch", "x"}).messages, fatal_text("Value 'x' is not defined for option 'cpu-arch'"));
  EXPECT_EQ(run({"-cpu-arch", "-v"}).messages, fatal_text("Value '-v' is not defined for option 'cpu-arch'"));
  for (const char *cpu : {"AARCH64", "ARMv7", "PPC64LE", "X86", "X86_64", "unknown"})
    EXPECT_EQ(run({"-arch", "sm_90", "-o", "x", "k.cubin", "-cpu-arch", cpu}).opts.cpu_arch, cpu);
}

TEST(Options, DeviceStackProtectorTakesTrueOrFalse) {
  EXPECT_TRUE(run(words("-arch sm_90 -o x k.cubin -device-stack-protector true")).opts.device_stack_protector);
  EXPECT_FALSE(run(words("-arch sm_90 -o x k.cubin -device-stack-protector=false")).opts.device_stack_protector);
  EXPECT_EQ(run(words("-arch sm_90 -o x -device-stack-protector k.cubin")).messages,
            fatal_text("'k.cubin': expected true or false"));
  EXPECT_EQ(run(words("-device-stack-protector=yes")).messages, fatal_text("'yes': expected true or false"));
  EXPECT_EQ(run(words("-device-stack-protector True")).messages, fatal_text("'True': expected true or false"));
  EXPECT_EQ(run(words("-device-stack-protector 1")).messages, fatal_text("'1': expected true or false"));
}

// --------------------------------------------------------- value errors

TEST(Options, MissingAndUnexpectedValues) {
  EXPECT_EQ(run({"-arch"}).messages, fatal_text("argument expected after '-arch'"));
  EXPECT_EQ(run({"--arch"}).messages, fatal_text("argument expected after '--arch'"));
  EXPECT_EQ(run({"--output-file"}).messages, fatal_text("argument expected after '--output-file'"));
  EXPECT_EQ(run(words("-arch sm_90 k.cubin -o")).messages, fatal_text("argument expected after '-o'"));
  EXPECT_EQ(run({"-l"}).messages, fatal_text("argument expected after '-l'"));
  EXPECT_EQ(run({"-L"}).messages, fatal_text("argument expected after '-L'"));
  EXPECT_EQ(run({"-Xptxas"}).messages, fatal_text("argument expected after '-Xptxas'"));
  EXPECT_EQ(run({"--verbose=1"}).messages, fatal_text("no argument expected after '--verbose'"));
  EXPECT_EQ(run({"-v=1"}).messages, fatal_text("no argument expected after '-v'"));
  EXPECT_EQ(run({"-v="}).messages, fatal_text("no argument expected after '-v'"));
  EXPECT_EQ(run({"-g=true"}).messages, fatal_text("no argument expected after '-g'"));
  EXPECT_EQ(run({"-h=1"}).messages, fatal_text("no argument expected after '-h'"));
  EXPECT_EQ(run({"-V=1"}).messages, fatal_text("no argument expected after '-V'"));
  EXPECT_EQ(run({"-lto=1"}).messages, fatal_text("no argument expected after '-lto'"));
  EXPECT_EQ(run({"-Werror=1"}).messages, fatal_text("no argument expected after '-Werror'"));
  // The first problem in argv order wins.
  EXPECT_EQ(run({"-v=1", "--bogus"}).messages, fatal_text("no argument expected after '-v'"));
  EXPECT_EQ(run({"--bogus", "-v=1"}).messages, fatal_text("Unknown option '-bogus'"));
  EXPECT_EQ(run({"-arch", "sm_999", "--bogus"}).messages, fatal_text("Value 'sm_999' is not defined for option 'arch'"));
}

// ------------------------------------------------------ checks after parsing

TEST(Options, RequiredArchOutputAndInputsInThisOrder) {
  EXPECT_EQ(run({}).messages, fatal_text("Unknown arch name '(null)'"));
  EXPECT_EQ(run({"k.cubin"}).messages, fatal_text("Unknown arch name '(null)'"));
  EXPECT_EQ(run(words("-o out.cubin k.cubin")).messages, fatal_text("Unknown arch name '(null)'"));
  EXPECT_EQ(run(words("-use-host-info -ignore-host-info")).messages, fatal_text("Unknown arch name '(null)'"));
  EXPECT_EQ(run(words("-arch=sm_90")).messages, fatal_text("Must specify output file with -o option"));
  EXPECT_EQ(run(words("-arch=sm_90 k.cubin")).messages, fatal_text("Must specify output file with -o option"));
  // A virtual target writes no output, so -o is optional there.
  EXPECT_FALSE(run(words("-arch=compute_90 k.cubin")).fatal);
  EXPECT_EQ(run(words("-arch=compute_90")).messages,
            fatal_text("No input files specified; use option --help for more information"));
  EXPECT_EQ(run(words("-arch=sm_90 -o out.cubin")).messages,
            fatal_text("No input files specified; use option --help for more information"));
  EXPECT_EQ(run(words("-arch=sm_90 -o out.cubin -lcudadevrt -L/usr/local/cuda/lib64")).messages,
            fatal_text("No input files specified; use option --help for more information"));
  EXPECT_EQ(run(words("-dlto -arch sm_90 -o x")).messages,
            fatal_text("No input files specified; use option --help for more information"));
  // An empty -o passes here (nvlink fails later opening '').
  Result r = run({"-arch", "sm_90", "-o=", "k.cubin"});
  EXPECT_FALSE(r.fatal);
  EXPECT_EQ(r.opts.output_file, "");
}

TEST(Options, HelpAndVersionSkipTheChecks) {
  for (auto args : {words("-h"), words("--help"), words("-h -use-host-info -ignore-host-info"),
                    words("-arch sm_90 -o out.cubin -h k.cubin"), words("-ghls lcs-abs -h")}) {
    Result r = run(args);
    EXPECT_FALSE(r.fatal) << r.messages;
    EXPECT_TRUE(r.opts.help);
    EXPECT_EQ(r.messages, "");
  }
  Result r = run(words("-V -arch sm_90 -o out.cubin k.cubin"));
  EXPECT_FALSE(r.fatal);
  EXPECT_TRUE(r.opts.version);
  r = run(words("-V -h"));
  EXPECT_TRUE(r.opts.help && r.opts.version); // the caller prints help (nvlink does)
  // Parse problems still stop them.
  EXPECT_EQ(run(words("-h --bogus")).messages, fatal_text("Unknown option '-bogus'"));
  EXPECT_EQ(run(words("-V --bogus")).messages, fatal_text("Unknown option '-bogus'"));
  EXPECT_EQ(run(words("-h -arch sm_999")).messages, fatal_text("Value 'sm_999' is not defined for option 'arch'"));
  EXPECT_EQ(run(words("-h -arch sm_90 -arch sm_80")).messages,
            "nvlink warning : incompatible redefinition for option 'arch', the last value of this option was used\n");
}

TEST(Options, HostLinkerScriptNeedsNoArchOrOutputButNoInputs) {
  EXPECT_FALSE(run({"-ghls", "lcs-abs"}).fatal);
  EXPECT_FALSE(run(words("-ghls lcs-abs -o x")).fatal);
  EXPECT_FALSE(run(words("-arch sm_90 -ghls lcs-aug -o x")).fatal);
  const std::string msg = fatal_text("Input files are not allowed with -ghls option; use --help for more information");
  EXPECT_EQ(run(words("-ghls lcs-abs k.cubin")).messages, msg);
  // Before every other check.
  EXPECT_EQ(run(words("-arch sm_90 -o out.cubin k.cubin -ghls lcs-abs -suppress-debug-info")).messages, msg);
}

TEST(Options, Conflicts) {
  const auto base = words("-arch sm_90 -o out.cubin k.cubin");
  auto check = [&](std::string_view extra) { return run(concat(base, words(extra))).messages; };
  EXPECT_EQ(check("-use-host-info -ignore-host-info"), fatal_text("Conflicting options '-use-host-info' and '-ignore-host-info'"));
  EXPECT_EQ(check("-dump-callgraph -dump-callgraph-no-demangle"),
            fatal_text("Conflicting options '-dump-callgraph' and '-dump-callgraph-no-demangle'"));
  EXPECT_EQ(check("-dlto"), fatal_text("-nvvmpath should be specified with -lto"));
  EXPECT_EQ(check("-lto"), fatal_text("-nvvmpath should be specified with -lto"));
  EXPECT_EQ(check("-emit-ptx"), fatal_text("Conflicting options '-emit-ptx' and 'no -dlto'"));
  EXPECT_EQ(check("-Ofc max"), fatal_text("Conflicting options '--Ofast-compile' and 'no -dlto'"));
  EXPECT_EQ(check("-Ofc"), fatal_text("Conflicting options '--Ofast-compile' and 'no -dlto'"));
  EXPECT_EQ(check("-suppress-debug-info"), fatal_text("Conflicting options '-suppress-debug-info' and 'no -g'"));
  EXPECT_EQ(check("-dlto -nvvmpath nvvm -Ofc fast"), fatal_text("Invalid argument for option '--Ofast-compile'"));
  EXPECT_EQ(run({"-arch", "sm_90", "-o", "x", "k.cubin", "-dlto", "-nvvmpath", ""}).messages, "");
  // No conflict.
  for (std::string_view ok : {"-g -suppress-debug-info", "-dlto -nvvmpath nvvm -emit-ptx", "-dlto -nvvmpath nvvm -Ofc mid",
                              "-r -dlto -nvvmpath nvvm", "-r -kernels-used k", "-r --shared", "-r -g -dump-callgraph",
                              "-r -use-host-info"})
    EXPECT_EQ(check(ok), "") << ok;
}

TEST(Options, ConflictOrder) {
  // Measured pairwise: ghls, suppress-debug-info, dump-callgraph, host info,
  // (info), lto_ target, nvvmpath, emit-ptx, Ofast-compile, (info), Ofc value.
  const auto base = words("-arch sm_90 -o out.cubin k.cubin");
  auto first = [&](std::string_view extra) { return run(concat(base, words(extra))).messages; };
  EXPECT_EQ(first("-use-host-info -ignore-host-info -dump-callgraph -dump-callgraph-no-demangle"),
            fatal_text("Conflicting options '-dump-callgraph' and '-dump-callgraph-no-demangle'"));
  EXPECT_EQ(first("-dump-callgraph -dump-callgraph-no-demangle -suppress-debug-info"),
            fatal_text("Conflicting options '-suppress-debug-info' and 'no -g'"));
  EXPECT_EQ(first("-use-host-info -ignore-host-info -lto -emit-ptx -Ofc max"),
            fatal_text("Conflicting options '-use-host-info' and '-ignore-host-info'"));
  EXPECT_EQ(first("-lto -emit-ptx -Ofc max"), fatal_text("-nvvmpath should be specified with -lto"));
  EXPECT_EQ(first("-emit-ptx -Ofc max"), fatal_text("Conflicting options '-emit-ptx' and 'no -dlto'"));
  EXPECT_EQ(first("-use-host-info -ignore-host-info -kernels-used k"),
            fatal_text("Conflicting options '-use-host-info' and '-ignore-host-info'"));
  EXPECT_EQ(first("-dlto -use-host-info -variables-used k"),
            "nvlink info    : ignore -use-host-info because -kernels-used or -variables-used is specified\n" +
                fatal_text("-nvvmpath should be specified with -lto"));
  EXPECT_EQ(first("-emit-ptx -split-compile-extended 2"), fatal_text("Conflicting options '-emit-ptx' and 'no -dlto'"));
  EXPECT_EQ(first("-dlto -nvvmpath nvvm -Ofc fast -emit-ptx -split-compile-extended 2 -use-host-info -kernels-used k"),
            "nvlink info    : ignore -use-host-info because -kernels-used or -variables-used is specified\n"
            "nvlink info    : Incompatible options '-emit-ptx' and '-split-compile-extended', using '-split-compile'\n" +
                fatal_text("Invalid argument for option '--Ofast-compile'"));
  // lto_ targets: after the host-info info line, before -nvvmpath.
  auto lto = [](std::string_view extra) { return run(concat(words("-arch lto_90 -o out.cubin k.cubin"), words(extra))).messages; };
  const std::string virt = fatal_text("Link target of 'lto_90' is virtual target that is not JIT-able; use 'sm_' target instead");
  EXPECT_EQ(lto("-suppress-debug-info"), fatal_text("Conflicting options '-suppress-debug-info' and 'no -g'"));
  EXPECT_EQ(lto("-use-host-info -ignore-host-info"), fatal_text("Conflicting options '-use-host-info' and '-ignore-host-info'"));
  EXPECT_EQ(lto("-dlto"), virt);
  EXPECT_EQ(lto("-emit-ptx"), virt);
  EXPECT_EQ(lto("-Ofc"), virt);
  EXPECT_EQ(lto("-use-host-info -kernels-used k"),
            "nvlink info    : ignore -use-host-info because -kernels-used or -variables-used is specified\n" + virt);
  EXPECT_EQ(lto("-emit-ptx -dlto -nvvmpath nvvm -split-compile-extended 2"), virt);
}

TEST(Options, InfoLinesAdjustTheOptions) {
  Result r = run(words("-arch sm_90 -o out.cubin k.cubin -use-host-info -kernels-used k"));
  EXPECT_EQ(r.messages, "nvlink info    : ignore -use-host-info because -kernels-used or -variables-used is specified\n");
  EXPECT_FALSE(r.opts.use_host_info);
  // An empty list does not count.
  r = run({"-arch", "sm_90", "-o", "x", "k.cubin", "-use-host-info", "-kernels-used", ","});
  EXPECT_EQ(r.messages, "");
  EXPECT_TRUE(r.opts.use_host_info);
  // -disable-infos silences neither.
  r = run(words("-arch sm_90 -o out.cubin k.cubin -disable-infos -use-host-info -kernels-used k -dlto -nvvmpath nvvm "
                "-emit-ptx -split-compile-extended 2"));
  EXPECT_EQ(r.messages,
            "nvlink info    : ignore -use-host-info because -kernels-used or -variables-used is specified\n"
            "nvlink info    : Incompatible options '-emit-ptx' and '-split-compile-extended', using '-split-compile'\n");
  EXPECT_TRUE(r.opts.split_compile_extended.empty());
}

TEST(Options, PreserveRelocsWarning) {
  auto msg = [](std::string_view arch) {
    return fmt::format("Option '--preserve-relocs' is not fully implemented for gpu archtecture '{}' and may not work as expected\n", arch);
  };
  for (const char *arch : {"sm_90", "sm_90a", "sm_100", "sm_120", "compute_90"})
    EXPECT_EQ(run({"-arch", arch, "-o", "x", "k.cubin", "-preserve-relocs"}).messages, "nvlink warning : " + msg(arch));
  for (const char *arch : {"sm_75", "sm_80", "sm_86", "sm_89", "compute_75"})
    EXPECT_EQ(run({"-arch", arch, "-o", "x", "k.cubin", "-preserve-relocs", "-r"}).messages, "") << arch;
  // Not silenced by -w; an error with -Werror; silenced by -disable-infos (even with -Werror).
  EXPECT_EQ(run(words("-arch sm_90 -o x k.cubin -preserve-relocs -w")).messages, "nvlink warning : " + msg("sm_90"));
  Result r = run(words("-arch sm_90 -o x k.cubin -preserve-relocs -Werror"));
  EXPECT_EQ(r.messages, "nvlink error   : " + msg("sm_90"));
  EXPECT_EQ(r.errors, 1);
  r = run(words("-arch sm_90 -o x k.cubin -preserve-relocs -disable-infos -Werror"));
  EXPECT_EQ(r.messages, "");
  EXPECT_EQ(r.errors, 0);
}

TEST(Options, DiagnosticsSettings) {
  std::ostringstream out;
  Diagnostics diag(out);
  parse_command_line(words("nvlink -arch sm_90a -o x k.cubin -report-arch -w -Werror"), diag);
  EXPECT_EQ(diag.report_arch, "sm_90a");
  EXPECT_TRUE(diag.warnings_as_errors);
  EXPECT_TRUE(diag.suppress_warnings);
  Diagnostics plain(out);
  parse_command_line(words("nvlink -arch sm_90 -o x k.cubin"), plain);
  EXPECT_EQ(plain.report_arch, "");
}

// ------------------------------------------------------------ options files

TEST(OptionsFile, WordsQuotesAndEscapes) {
  TempDir dir;
  auto tokens = [&](std::string_view text) {
    std::string f = dir.write("t.txt", text);
    Result r = run({"-arch", "sm_90", "-o", "x", "-optf", f});
    return r.fatal ? r.messages : fmt::format("{}", fmt::join(r.opts.input_files, "|"));
  };
  EXPECT_EQ(tokens("a b\tc\nd\re"), "a|b|c|d|e");
  EXPECT_EQ(tokens("a\vb a\fb"), "a\vb|a\fb");
  EXPECT_EQ(tokens("\"sp ace/k s.cubin\""), "sp ace/k s.cubin");
  EXPECT_EQ(tokens("sp\\ ace/k\\ s.cubin"), "sp ace/k s.cubin");
  EXPECT_EQ(tokens("'a b'"), "'a|b'");
  EXPECT_EQ(tokens("a\\b"), "ab");
  EXPECT_EQ(tokens("a\\\\b"), "a\\b");
  EXPECT_EQ(tokens("a\\\\\\b"), "a\\b");
  EXPECT_EQ(tokens("a\\\\\\\\b"), "a\\\\b");
  EXPECT_EQ(tokens("a\\\"b"), "ab");         // an escaped quote vanishes
  EXPECT_EQ(tokens("\"a\\\" b\""), "a b");   // ... and does not end the quote
  EXPECT_EQ(tokens("a\\\" b"), "a|b");
  EXPECT_EQ(tokens("\"a b\"c"), "a bc");
  EXPECT_EQ(tokens("a\"b\"c"), "abc");
  EXPECT_EQ(tokens("\"a\"\"b\""), "ab");
  EXPECT_EQ(tokens("\"\""), "");
  EXPECT_EQ(tokens("a\\\nb"), "a\nb");
  EXPECT_EQ(tokens("\"a\nb\""), "a\nb");
  EXPECT_EQ(tokens("#x"), "#x");
  EXPECT_EQ(tokens("a\\"), fatal_text("Stray '' character"));
  EXPECT_EQ(tokens("\"a"), fatal_text("Stray '\"' character"));
  EXPECT_EQ(tokens("a\""), fatal_text("Stray '\"' character"));
  EXPECT_EQ(tokens("x\"a\\\\\"b\"y"), fatal_text("Stray '\"' character"));
}

TEST(OptionsFile, ExpandsInPlaceAndIsSelfContained) {
  TempDir dir;
  std::string o1 = dir.write("o1.txt", "-v -l foo");
  Result r = run({"-arch", "sm_90", "-l", "a", "-optf", o1, "-l", "b", "k.cubin", "-o", "out.cubin"});
  ASSERT_FALSE(r.fatal) << r.messages;
  EXPECT_EQ(r.opts.libraries, (std::vector<std::string>{"a", "foo", "b"}));
  EXPECT_TRUE(r.opts.verbose);
  EXPECT_EQ(r.opts.canonical_command_line, "-arch sm_90 -l a,foo,b -v  ");
  // Comma lists of files, --options-file, -optf=.
  std::string o2 = dir.write("o2.txt", "-Werror");
  r = run({"-arch", "sm_90", "k.cubin", "-o", "x", "-optf", o1 + "," + o2, "--options-file", o1, "-optf=" + o2});
  EXPECT_EQ(r.opts.libraries, (std::vector<std::string>{"foo", "foo"}));
  EXPECT_TRUE(r.opts.warning_as_error);
  // A whole command line from a file.
  std::string f4 = dir.write("f4.txt", "-arch=sm_90\n-o\nout.cubin\n\tk.cubin");
  r = run({"-optf", f4});
  ASSERT_FALSE(r.fatal) << r.messages;
  EXPECT_EQ(r.opts.output_file, "out.cubin");
  // An option at the end of a file does not take its value from argv.
  std::string tail = dir.write("tail.txt", "-arch\n");
  EXPECT_EQ(run({"-optf", tail, "sm_90", "-o", "out.cubin", "k.cubin"}).messages,
            fatal_text("argument expected after '-arch'"));
  // A file is split before its options are read.
  std::string stray = dir.write("stray.txt", "-arch sm_80 \"abc");
  EXPECT_EQ(run({"-arch", "sm_90", "-optf", stray}).messages, fatal_text("Stray '\"' character"));
  EXPECT_EQ(run({"-v=1", "-optf", stray}).messages, fatal_text("no argument expected after '-v'"));
  std::string bogus = dir.write("bogus.txt", "--bogus");
  EXPECT_EQ(run({"-arch", "sm_90", "-arch", "sm_80", "-optf", bogus}).messages,
            "nvlink warning : incompatible redefinition for option 'arch', the last value of this option was used\n" +
                fatal_text("Unknown option '-bogus'"));
  // An empty file is fine.
  std::string empty = dir.write("empty.txt", "");
  EXPECT_FALSE(run({"-arch", "sm_90", "-o", "x", "k.cubin", "-optf", empty}).fatal);
}

TEST(OptionsFile, MissingFileAndNesting) {
  TempDir dir;
  std::string missing = (dir.path() / "nonexist.txt").string();
  EXPECT_EQ(run({"-arch", "sm_90", "-o", "x", "k.cubin", "-optf", missing}).messages,
            fatal_text("Could not open options file '" + missing + "'"));
  EXPECT_EQ(run({"-optf", "-v"}).messages, fatal_text("Could not open options file '-v'"));
  // Files nest up to 15 deep; names are relative to the current directory,
  // so these use absolute paths.
  auto chain = [&](int depth) {
    for (int n = 1; n < depth; n++)
      dir.write(fmt::format("c{}.txt", n), "-optf " + (dir.path() / fmt::format("c{}.txt", n + 1)).string());
    dir.write(fmt::format("c{}.txt", depth), "-v");
    return run({"-arch", "sm_90", "-o", "x", "k.cubin", "-optf", (dir.path() / "c1.txt").string()});
  };
  Result r = chain(15);
  EXPECT_FALSE(r.fatal) << r.messages;
  EXPECT_TRUE(r.opts.verbose);
  r = chain(16);
  EXPECT_EQ(r.messages, fatal_text("Too many options file opened '" + (dir.path() / "c16.txt").string() + "'"));
  // The depth is checked before the file is opened.
  dir.write("c15.txt", "-optf " + missing);
  EXPECT_EQ(run({"-arch", "sm_90", "-o", "x", "k.cubin", "-optf", (dir.path() / "c1.txt").string()}).messages,
            fatal_text("Too many options file opened '" + missing + "'"));
  // Siblings do not count.
  std::string o2 = dir.write("o2.txt", "-v");
  std::string many;
  for (int i = 0; i < 200; i++)
    many += "-optf " + o2 + " ";
  EXPECT_FALSE(run({"-arch", "sm_90", "-o", "x", "k.cubin", "-optf", dir.write("many.txt", many)}).fatal);
  // A file that includes itself.
  std::string self = (dir.path() / "self.txt").string();
  dir.write("self.txt", "-optf " + self);
  EXPECT_EQ(run({"-optf", self}).messages, fatal_text("Too many options file opened '" + self + "'"));
}

// ------------------------------------------------- canonical command line

struct CanonicalCase {
  std::vector<std::string> args; // appended to "-arch=sm_90 k.cubin -o out.cubin" unless `whole`
  std::string expected;
  bool whole = false;
};

TEST(Options, CanonicalCommandLine) {
  const std::vector<CanonicalCase> cases = {
      {{}, "-arch sm_90 "},
      {{"-g"}, "k.cubin -o out.cubin -g  -arch sm_90 "},
      {{"-v"}, "-arch sm_90 -v  "},
      {{"-r"}, "-arch sm_90 -r  "},
      {{"-w"}, "-arch sm_90 -w  "},
      {{"-Werror"}, "-arch sm_90 -Werror  "},
      {{"-preserve-relocs"}, "-arch sm_90 -preserve-relocs  "},
      {{"-dump-callgraph"}, "-arch sm_90 -dump-callgraph  "},
      {{"-dump-callgraph-no-demangle"}, "-arch sm_90 -dump-callgraph-no-demangle  "},
      {{"-use-host-info"}, "-arch sm_90 -use-host-info  "},
      {{"-ignore-host-info"}, "-arch sm_90 -ignore-host-info  "},
      {{"-keep-system-libraries"}, "-arch sm_90 -keep-system-libraries  "},
      {{"-suppress-arch-warning"}, "-suppress-arch-warning  -arch sm_90 "},
      {{"-suppress-stack-size-warning"}, "-suppress-stack-size-warning  -arch sm_90 "},
      {{"-device-stack-protector", "true"}, "-arch sm_90 -device-stack-protector true "},
      {{"-device-stack-protector=false"}, "-arch sm_90 -device-stack-protector false "},
      {{"-extrawarn"}, "-arch sm_90 -extrawarn  "},
      {{"-report-arch"}, "-arch sm_90 -report-arch  "},
      {{"-disable-infos"}, "-arch sm_90 -disable-infos  "},
      {{"--shared"}, "-arch sm_90 "},
      {{"-m", "64"}, "-arch sm_90 -m 64 "},
      {{"-m", "64", "-m=64", "-m64", "--machine", "64"}, "-arch sm_90 -m 64 "},
      {{"-m", "0x40"}, "-arch sm_90 -m 64 "},
      {{"-cpu-arch", "X86_64"}, "-arch sm_90 -cpu-arch X86_64 "},
      {{"-cpu-arch", "unknown"}, "-arch sm_90 -cpu-arch unknown "},
      {{"-maxrregcount", "32"}, "-arch sm_90 -maxrregcount 32 "},
      {{"-maxrregcount", "012"}, "-arch sm_90 -maxrregcount 10 "},
      {{"-maxrregcount", ""}, "-arch sm_90 -maxrregcount 0 "},
      {{"-maxrregcount", "+5"}, "-arch sm_90 -maxrregcount 5 "},
      {{"-maxrregcount", "-0x80000000"}, "-arch sm_90 -maxrregcount -2147483648 "},
      {{"-maxrregcount", "16", "-maxrregcount", "0x10"}, "-arch sm_90 -maxrregcount 16 "},
      {{"-split-compile", "4"}, "-arch sm_90 -split-compile 4 "},
      {{"-split-compile", "0x4"}, "-arch sm_90 -split-compile 4 "},
      {{"-split-compile", "-3"}, "-arch sm_90 -split-compile -3 "},
      {{"-split-compile-extended", "3"}, "-arch sm_90 -split-compile-extended 3 "},
      {{"-time", "t.csv"}, "-arch sm_90 "},
      {{"-time", "-"}, "-arch sm_90 "},
      {{"-nvvmpath", "/usr/local/cuda/nvvm"}, "-arch sm_90 -nvvmpath /usr/local/cuda/nvvm "},
      {{"-Xptxas", "-O3"}, "-arch sm_90 -Xptxas -O3 "},
      {{"--Xptxas=-v"}, "-arch sm_90 -Xptxas -v "},
      {{"-Xptxas", "-O3 -v,-lineinfo", "-Xptxas=-O2"}, "-arch sm_90 -Xptxas -O3 -v,-lineinfo,-O2 "},
      {{"-Xnvvm", "-opt=3"}, "-arch sm_90 -Xnvvm -opt=3 "},
      {{"-kernels-used", "k"}, "-arch sm_90 -kernels-used k "},
      {{"-kernels-used", "a,b", "-kernels-used=c", "-variables-used", "x,y"}, "-arch sm_90 -kernels-used a,b,c -variables-used x,y "},
      {{"-variables-used", "v"}, "-arch sm_90 -variables-used v "},
      {{"-l", "foo"}, "-arch sm_90 -l foo "},
      {{"-L", "/tmp"}, "-arch sm_90 -L /tmp "},
      {{"-l", "a,,b"}, "-arch sm_90 -l a,b "},
      {{"-l", "", "-L", ""}, "-arch sm_90 -l  -L  "},
      {{"-l", ","}, "-arch sm_90 -l  "},
      {{"-l", "a,"}, "-arch sm_90 -l a "},
      {{"-lfoo,bar", "-La,b"}, "-arch sm_90 -l foo,bar -L a,b "},
      {{"-lfoo=bar"}, "-arch sm_90 -l foo=bar "},
      {{"-L/a=b"}, "-arch sm_90 -L /a=b "},
      {{"-ltox"}, "-arch sm_90 -l tox "},
      {{"-larch=sm_80"}, "-arch sm_90 -l arch=sm_80 "},
      {{"-l=foo", "-L=/tmp"}, "-arch sm_90 -l foo -L /tmp "},
      {{"--library=a", "--library-path", "b"}, "-arch sm_90 -l a -L b "},
      {{"--register-link-binaries", "r.txt"}, "-arch sm_90 "},
      {{"--host-ccbin", "gcc"}, "-arch sm_90 "},
      {{"-g", "-host-ccbin", "gcc", "-shared", "--host-linker-options", "x", "--allow-undefined-globals", "-force-rela"},
       "k.cubin -o out.cubin -g  -arch sm_90 "},
      {{"-g", "-suppress-debug-info"}, "k.cubin -o out.cubin -g  -arch sm_90 -suppress-debug-info  "},
      {{"-v", "-v", "-g", "-g"}, "k.cubin -o out.cubin -g  -arch sm_90 -v  "},
      {{"-dlto", "-nvvmpath", "nvvm"}, "-arch sm_90 -dlto  -nvvmpath nvvm "},
      {{"-lto", "-nvvmpath", "nvvm"}, "-arch sm_90 -lto  -nvvmpath nvvm "},
      {{"-dlto", "-lto", "-nvvmpath", "nvvm"}, "-arch sm_90 -lto  -dlto  -nvvmpath nvvm "},
      {{"-dlto", "-nvvmpath", "nvvm", "-Ofc", "max"}, "-arch sm_90 -dlto  -nvvmpath nvvm -Ofc max "},
      {{"-dlto", "-nvvmpath", "nvvm", "-emit-ptx"}, "-arch sm_90 -emit-ptx  -dlto  -nvvmpath nvvm "},
      {{"-dlto", "-nvvmpath", "nvvm", "-w", "-Ofc"}, "-arch sm_90 -w  -dlto  -nvvmpath nvvm -Ofc 0 "},
      {{"-dlto", "-nvvmpath", "nvvm", "-w", "-Ofc", "-v"}, "-arch sm_90 -v  -w  -dlto  -nvvmpath nvvm -Ofc 0 "},
      {{"-dlto", "-nvvmpath", "nvvm", "-w", "--Ofast-compile"}, "-arch sm_90 -w  -dlto  -nvvmpath nvvm -Ofc 0 "},
      {{"-use-host-info", "-kernels-used", "k", "-disable-infos", "-Werror", "-dlto", "-nvvmpath", "nvvm"},
       "-arch sm_90 -Werror  -disable-infos  -kernels-used k -dlto  -nvvmpath nvvm -use-host-info  "},
      // -g: inputs and file options by basename, in argv order.
      {{"-arch", "sm_90", "-g", "k2.cubin", "./k.cubin", "-o", "out.cubin"}, "k2.cubin,k.cubin -o out.cubin -g  -arch sm_90 ", true},
      {{"-arch", "sm_90", "-g", "k.cubin", "/tmp/cli/k2.cubin", "-o", "./out.cubin"},
       "k.cubin,k2.cubin -o out.cubin -g  -arch sm_90 ", true},
      {{"-arch", "sm_90", "-g", "sub/k2.cubin", "../cli/k.cubin", "-o", "sub/o.cubin"},
       "k2.cubin,k.cubin -o o.cubin -g  -arch sm_90 ", true},
      {{"-arch", "sm_90", "-g", "-Lsub", "-lkk", "-o", "out.cubin", "k.cubin", "sub/libkk.a"},
       "k.cubin,libkk.a -o out.cubin -g  -arch sm_90 -l kk -L sub ", true},
      {{"-arch", "sm_90", "-g", "-Lsub", "-lkk", "-o", "out.cubin", "k.cubin"}, "k.cubin -o out.cubin -g  -arch sm_90 -l kk -L sub ", true},
      {{"-arch", "sm_90", "-g", "-o", "out.cubin", "sub/libkk.a", "k.cubin"}, "libkk.a,k.cubin -o out.cubin -g  -arch sm_90 ", true},
      {{"-arch", "sm_90", "-g", "-time", "sub/t.csv", "--register-link-binaries", "sub/r.txt", "-L", "sub", "-L", "/usr/./lib",
        "sub/k2.cubin", "-o", "/tmp/cli/sub/o.cubin"},
       "k2.cubin -o o.cubin -g  -arch sm_90 -L sub,/usr/./lib - r.txt -time t.csv ", true},
      // Other targets.
      {{"-arch", "sm_90a", "-o", "out.cubin", "k.cubin"}, "-arch sm_90a ", true},
      {{"-arch", "sm_100f", "-o", "out.cubin", "k100f.cubin"}, "-arch sm_100f ", true},
      {{"-arch", "sm_100", "-o", "out.cubin", "k100f.cubin"}, "-arch sm_100 ", true},
      // Argv order does not matter: every option at once, both ways round.
      {words("-g -v -r -w -dlto -nvvmpath nvvm -emit-ptx -Ofc max -preserve-relocs -dump-callgraph -use-host-info "
             "-keep-system-libraries -suppress-arch-warning -suppress-stack-size-warning -suppress-debug-info "
             "-device-stack-protector true -extrawarn -report-arch -disable-infos --shared -m 64 -cpu-arch X86_64 "
             "-maxrregcount 32 -split-compile 4 -split-compile-extended 3 -time t.csv -Xptxas -O3 -Xnvvm -opt=3 "
             "-kernels-used k -variables-used v -l foo -L /tmp --register-link-binaries r.txt --host-ccbin gcc"),
       "k.cubin -suppress-stack-size-warning  -suppress-arch-warning  -o out.cubin -g  -arch sm_90 -m 64 -l foo "
       "-L /tmp - r.txt -v  -preserve-relocs  -w  -disable-infos  -keep-system-libraries  -kernels-used k "
       "-variables-used v -cpu-arch X86_64 -report-arch  -emit-ptx  -time t.csv -extrawarn  -dlto  -nvvmpath nvvm "
       "-split-compile 4 -split-compile-extended 3 -Ofc max -suppress-debug-info  -Xptxas -O3 -Xnvvm -opt=3 "
       "-maxrregcount 32 -dump-callgraph  -use-host-info  -r  -device-stack-protector true "},
      {words("-o out.cubin k.cubin --host-ccbin gcc --register-link-binaries r.txt -L /tmp -l foo -variables-used v "
             "-kernels-used k -Xnvvm -opt=3 -Xptxas -O3 -time t.csv -split-compile-extended 3 -split-compile 4 "
             "-maxrregcount 32 -cpu-arch X86_64 -m 64 --shared -disable-infos -report-arch -extrawarn "
             "-device-stack-protector false -suppress-debug-info -suppress-stack-size-warning -suppress-arch-warning "
             "-keep-system-libraries -use-host-info -dump-callgraph -preserve-relocs -Ofc max -emit-ptx -nvvmpath nvvm "
             "-dlto -w -r -v -g -arch=sm_90"),
       "k.cubin -suppress-stack-size-warning  -suppress-arch-warning  -o out.cubin -g  -arch sm_90 -m 64 -l foo "
       "-L /tmp - r.txt -v  -preserve-relocs  -w  -disable-infos  -keep-system-libraries  -kernels-used k "
       "-variables-used v -cpu-arch X86_64 -report-arch  -emit-ptx  -time t.csv -extrawarn  -dlto  -nvvmpath nvvm "
       "-split-compile 4 -split-compile-extended 3 -Ofc max -suppress-debug-info  -Xptxas -O3 -Xnvvm -opt=3 "
       "-maxrregcount 32 -dump-callgraph  -use-host-info  -r  -device-stack-protector false ",
       true},
      {words("-g -v -r -w -lto -nvvmpath nvvm -emit-ptx -Ofc max -preserve-relocs -dump-callgraph-no-demangle "
             "-ignore-host-info -keep-system-libraries -suppress-arch-warning -suppress-stack-size-warning "
             "-suppress-debug-info -device-stack-protector true -extrawarn -report-arch -disable-infos --shared -m 64 "
             "-cpu-arch X86_64 -maxrregcount 32 -split-compile 4 -split-compile-extended 3 -time t.csv -Xptxas -O3 "
             "-Xnvvm -opt=3 -kernels-used k -variables-used v -l foo -L /tmp --register-link-binaries r.txt "
             "--host-ccbin gcc -Werror"),
       "k.cubin -suppress-stack-size-warning  -suppress-arch-warning  -o out.cubin -g  -arch sm_90 -m 64 -l foo "
       "-L /tmp - r.txt -v  -preserve-relocs  -w  -Werror  -disable-infos  -keep-system-libraries  -kernels-used k "
       "-variables-used v -cpu-arch X86_64 -report-arch  -emit-ptx  -time t.csv -extrawarn  -lto  -nvvmpath nvvm "
       "-split-compile 4 -split-compile-extended 3 -Ofc max -suppress-debug-info  -Xptxas -O3 -Xnvvm -opt=3 "
       "-maxrregcount 32 -dump-callgraph-no-demangle  -ignore-host-info  -r  -device-stack-protector true "},
  };
  for (const CanonicalCase &c : cases) {
    std::vector<std::string> args = c.whole ? c.args : concat(words("-arch=sm_90 k.cubin -o out.cubin"), c.args);
    Result r = run(args);
    std::string shown = fmt::format("{}", fmt::join(args, " "));
    ASSERT_FALSE(r.fatal) << shown << "\n" << r.messages;
    EXPECT_EQ(r.opts.canonical_command_line, c.expected) << shown;
  }
}

TEST(Options, CanonicalCommandLineWithOptionsFiles) {
  TempDir dir;
  std::string o1 = dir.write("o1.txt", "-v -l foo");
  std::string o2 = dir.write("o2.txt", "-Werror");
  EXPECT_EQ(run({"-arch", "sm_90", "-optf", o1, "k.cubin", "-o", "out.cubin"}).opts.canonical_command_line,
            "-arch sm_90 -l foo -v  ");
  // With -g, -optf is recorded with an empty value.
  EXPECT_EQ(run({"-arch", "sm_90", "-g", "-optf", o1, "k.cubin", "-o", "out.cubin"}).opts.canonical_command_line,
            "k.cubin -o out.cubin -g  -arch sm_90 -l foo -v  -optf  ");
  EXPECT_EQ(run({"-arch", "sm_90", "-g", "-time", "sub/t.csv", "--register-link-binaries", "sub/r.txt", "-optf", o1, "-L",
                 "sub", "-L", "/usr/./lib", "sub/k2.cubin", "-o", "/tmp/cli/sub/o.cubin"})
                .opts.canonical_command_line,
            "k2.cubin -o o.cubin -g  -arch sm_90 -l foo -L sub,/usr/./lib - r.txt -v  -time t.csv -optf  ");
  // Inputs from a file, quoted.
  std::string q1 = dir.write("q1.txt", "\"sp ace/k s.cubin\" -v");
  EXPECT_EQ(run({"-arch", "sm_90", "-o", "out.cubin", "-optf", q1, "-g"}).opts.canonical_command_line,
            "k s.cubin -o out.cubin -g  -arch sm_90 -v  -optf  ");
  // The big one: lists across files, a redefined -time, -optf last.
  Result r = run(concat(words("-arch=sm_90 -g -v -r -w -lto -nvvmpath nvvm -emit-ptx -Ofc max -preserve-relocs "
                              "-dump-callgraph-no-demangle -ignore-host-info -keep-system-libraries -suppress-arch-warning "
                              "-suppress-stack-size-warning -suppress-debug-info -device-stack-protector true -extrawarn "
                              "-report-arch -disable-infos --shared -m 64 -cpu-arch X86_64 -maxrregcount 32 -split-compile 4 "
                              "-split-compile-extended 3 -time t.csv -Xptxas -O3 -Xnvvm -opt=3 -kernels-used k "
                              "-variables-used v -l foo -L /tmp --register-link-binaries r.txt --host-ccbin gcc k.cubin "
                              "-o out.cubin -Werror"),
                        {"-optf", o1 + "," + o2, "-optf", o1, "-time", "-"}));
  EXPECT_EQ(r.opts.canonical_command_line,
            "k.cubin -suppress-stack-size-warning  -suppress-arch-warning  -o out.cubin -g  -arch sm_90 -m 64 "
            "-l foo,foo,foo -L /tmp - r.txt -v  -preserve-relocs  -w  -Werror  -disable-infos  -keep-system-libraries  "
            "-kernels-used k -variables-used v -cpu-arch X86_64 -report-arch  -emit-ptx  -time - -extrawarn  -lto  "
            "-nvvmpath nvvm -split-compile 4 -split-compile-extended 3 -Ofc max -suppress-debug-info  -Xptxas -O3 "
            "-Xnvvm -opt=3 -maxrregcount 32 -dump-callgraph-no-demangle  -ignore-host-info  -r  "
            "-device-stack-protector true -optf  ");
}

TEST(Options, TkinfoObjectName) {
  EXPECT_EQ(run(words("-arch sm_90 -o sub/o.cubin k.cubin")).opts.tkinfo_object_name, "");
  EXPECT_EQ(run(words("-arch sm_90 -g -o sub/o.cubin k.cubin")).opts.tkinfo_object_name, "o.cubin");
}

// ------------------------------------------------------- help and version

std::string run_real_nvlink(const char *args) {
  const char *nvlink = "/usr/local/cuda/bin/nvlink";
  if (!fs::exists(nvlink))
    return {};
  std::string cmd = fmt::format("{} {} 2>/dev/null", nvlink, args);
  FILE *p = popen(cmd.c_str(), "r");
  if (!p)
    return {};
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;)
    out.append(buf, n);
  pclose(p);
  return out;
}

TEST(Options, HelpText) {
  std::string help = help_text();
  EXPECT_EQ(help.size(), 8755u);
  EXPECT_TRUE(help.starts_with("\nUsage  : nvlink [options] <objects>\n\nOptions\n=======\n\n"
                               "--Ofast-compile <0|min|mid|max>                     (-Ofc)                      \n"
                               "        Specify fast-compile level for device code, which controls the tradeoff between\n"));
  EXPECT_TRUE(help.ends_with("--warning-as-error                                  (-Werror)                   \n"
                             "        Make all warnings into errors.\n\n\n"));
  EXPECT_NE(help.find("--dump-callgraph-no-demangle                        (-dump-callgraph-no-demangle)\n"), std::string::npos);
  EXPECT_NE(help.find("--register-link-binaries <file name>                --register-link-binaries <file\n"
                      "        name>  \n"
                      "        Specify name and location of output file that will contain names of cudaRegister\n"),
            std::string::npos);
  EXPECT_EQ(help.find("host-ccbin"), std::string::npos);
  EXPECT_TRUE(help_text("mylink").starts_with("\nUsage  : mylink [options] <objects>\n"));
  std::string real = run_real_nvlink("--help");
  if (real.empty())
    GTEST_SKIP() << "no /usr/local/cuda/bin/nvlink to compare with";
  EXPECT_EQ(help, real);
}

TEST(Options, VersionText) {
  const std::string nvlink_lines = "nvlink: NVIDIA (R) Cuda linker\n"
                                   "Copyright (c) 2005-2025 NVIDIA Corporation\n"
                                   "Built on Wed_Aug_20_01:58:59_PM_PDT_2025\n"
                                   "Cuda compilation tools, release 13.0, V13.0.88\n"
                                   "Build cuda_13.0.r13.0/compiler.36424714_0\n";
  EXPECT_EQ(version_text("nvlink"), nvlink_lines);
  EXPECT_TRUE(version_text("mylink").starts_with("mylink: NVIDIA (R) Cuda linker\n"));
  EXPECT_EQ(version_text("dlink"), "dlink " DLINK_VERSION " (emulating nvlink 13.0.88)\n" + nvlink_lines);
  EXPECT_TRUE(reports_dlink_identity("dlink"));
  EXPECT_FALSE(reports_dlink_identity("nvlink"));
  std::string real = run_real_nvlink("--version");
  if (real.empty())
    GTEST_SKIP() << "no /usr/local/cuda/bin/nvlink to compare with";
  EXPECT_EQ(version_text("nvlink"), real);
}

} // namespace
} // namespace dlink
