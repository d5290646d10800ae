// Reading inputs as nvlink does: host objects, fatbins, archives, -L/-l, PTX,
// --register-link-binaries and host-reference kernel pruning decisions.
//
// Every expected message, exit status and registration line here was taken
// from nvlink 13.0.88 run on the same files (testdata/inputs, see
// docs/notes/inputs.md). Links run in process: parse_command_line + link()
// (or read_inputs() on a Context) with the diagnostics going to a string.
#include "dead_code.h"
#include "dlink/diag.h"
#include "dlink/driver.h"
#include "dlink/fatbin.h"
#include "dlink/host_object.h"
#include "dlink/options.h"
#include "input_files.h"
#include "link_runner.h"
#include "link_context.h"
#include "ptx_jit.h"
#include "registration.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace fs = std::filesystem;
using namespace dlink;

namespace {

std::string input(const std::string &name) { return std::string(DLINK_TESTDATA) + "/inputs/" + name; }

std::string read_file(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_file(const fs::path &p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A scratch directory that is the current directory while the test runs.
class ScratchDir {
public:
  ScratchDir() {
    std::string tmpl = (fs::temp_directory_path() / "dlink-inputs-test.XXXXXX").string();
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    path_ = ::mkdtemp(buf.data());
    old_ = fs::current_path();
    fs::current_path(path_);
  }
  ~ScratchDir() {
    fs::current_path(old_);
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path &path() const { return path_; }
  // Copies testdata/inputs/<name> here (as `as`).
  void copy(const std::string &name, const std::string &as = "") const {
    fs::copy_file(input(name), path_ / (as.empty() ? name : as), fs::copy_options::overwrite_existing);
  }

private:
  fs::path path_, old_;
};

struct LinkResult {
  int status = 0;
  std::string messages;
};

// `nvlink <args>`, run in process.
LinkResult run_link(const std::vector<std::string> &args) {
  std::vector<std::string> argv = {"nvlink"};
  argv.insert(argv.end(), args.begin(), args.end());
  test::LinkRun r = test::run_link(argv);
  return {r.status, r.diagnostics};
}

// read_inputs() alone, for what it records in the context.
struct ReadResult {
  int status = 0;
  std::string messages;
  std::vector<std::string> inputs; // InputObject names, link order
  std::vector<std::string> ids;    // registration ids
  bool host_refs = false;
  std::vector<std::string> kernel_patterns;
  std::vector<std::string> kept; // with `kernels`: which of them kernel_filter keeps
};

ReadResult run_read(const std::vector<std::string> &args, const std::vector<std::string> &kernels = {}) {
  std::ostringstream err;
  Diagnostics diag(err);
  std::vector<std::string> argv = {"nvlink"};
  argv.insert(argv.end(), args.begin(), args.end());
  ReadResult r;
  try {
    Options opts = parse_command_line(argv, diag);
    Context ctx(opts, diag);
    ctx.arch = *opts.arch;
    read_inputs(ctx);
    for (const InputObject *o : ctx.inputs)
      r.inputs.push_back(o->name);
    r.ids = ctx.link_binary_ids;
    r.host_refs = ctx.all_inputs_have_host_refs;
    for (std::string_view p : ctx.host_kernel_patterns)
      r.kernel_patterns.emplace_back(p);
    KernelFilter f = kernel_filter(ctx);
    for (const std::string &k : kernels)
      if (f.keeps(k))
        r.kept.push_back(k);
    r.status = diag.exit_code();
  } catch (const FatalError &) {
    r.status = 1;
  }
  r.messages = err.str();
  return r;
}

// A GNU ar archive of (name, bytes) members with short names.
std::string make_archive(const std::vector<std::pair<std::string, std::string>> &members) {
  std::string out = "!<arch>\n";
  for (const auto &[name, data] : members) {
    char hdr[61];
    std::snprintf(hdr, sizeof hdr, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", (name + "/").c_str(), "0", "0",
                  "0", "644", data.size());
    out.append(hdr, 60);
    out += data;
    if (data.size() & 1)
      out += '\n';
  }
  return out;
}

// Offset of __nv_relfatbin in a host object.
size_t relfatbin_offset(const std::string &bytes) {
  HostObject ho = read_host_object(
      std::span<const u8>(reinterpret_cast<const u8 *>(bytes.data()), bytes.size()));
  return static_cast<size_t>(ho.relfatbin.data() - reinterpret_cast<const u8 *>(bytes.data()));
}

constexpr const char *kIdK1 = "_296b146e_5_k1_cu__Z2k1Pi";
constexpr const char *kIdK2 = "_3bdebb80_5_k2_cu_e0f598cf";

} // namespace

// ---------------------------------------------------------------------------
// --register-link-binaries

TEST(Registration, FileTextIsNvlinks) {
  EXPECT_EQ(registration_file_text({}), "#define NUM_PRELINKED_OBJECTS 0\n");
  EXPECT_EQ(registration_file_text({"_a", "_b"}),
            "#define NUM_PRELINKED_OBJECTS 2\nDEFINE_REGISTER_FUNC(_a)\nDEFINE_REGISTER_FUNC(_b)\n");
}

TEST(Registration, PathIdsAreTheAbsolutePathMangled) {
  // nvlink: /tmp/m/b.cubin -> _tmp_m_b_cubin; ./b.cubin in /tmp/m -> _tmp_m___b_cubin
  // (cwd + "/" + path as written, not normalised; symlinks not resolved).
  EXPECT_EQ(registration_id_for_path("/tmp/m/b.cubin"), "_tmp_m_b_cubin");
  EXPECT_EQ(registration_id_for_path("/a-b/c+d.fatbin"), "_a_b_c_d_fatbin");
  ScratchDir dir;
  std::string cwd = fs::current_path().string();
  std::string mangled;
  for (char c : cwd)
    mangled += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  EXPECT_EQ(registration_id_for_path("./b.cubin"), mangled + "___b_cubin");
  EXPECT_EQ(registration_id_for_path("sub/../b.cubin"), mangled + "_sub____b_cubin");
}

TEST(Registration, WrittenForHostObjectsInLinkOrder) {
  ScratchDir dir;
  dir.copy("zstd_rdc.o");
  dir.copy("k2.o");
  LinkResult r = run_link({"-arch=sm_90", "--register-link-binaries=r.c", "zstd_rdc.o", "k2.o", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0) << r.messages;
  EXPECT_EQ(r.messages, "");
  EXPECT_EQ(read_file("r.c"), std::string("#define NUM_PRELINKED_OBJECTS 2\nDEFINE_REGISTER_FUNC(") + kIdK1 +
                                  ")\nDEFINE_REGISTER_FUNC(" + kIdK2 + ")\n");
}

TEST(Registration, ObjectsWithoutCodeForTheArchAreStillListed) {
  ScratchDir dir;
  dir.copy("zstd_rdc.o");
  dir.copy("multiarch.o");
  LinkResult r =
      run_link({"-arch=sm_80", "--register-link-binaries=r.c", "zstd_rdc.o", "multiarch.o", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.messages, "nvlink warning : SM Arch ('sm_80') not found in 'zstd_rdc.o'\n");
  EXPECT_EQ(read_file("r.c"), std::string("#define NUM_PRELINKED_OBJECTS 2\nDEFINE_REGISTER_FUNC(") + kIdK1 +
                                  ")\nDEFINE_REGISTER_FUNC(" + kIdK2 + ")\n");
}

TEST(Registration, WrittenAfterUndefinedReferencesButNotAfterInputErrors) {
  ScratchDir dir;
  dir.copy("zstd_rdc.o");
  LinkResult r = run_link({"-arch=sm_90", "--register-link-binaries=r.c", "zstd_rdc.o", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 255);
  EXPECT_TRUE(fs::exists("r.c"));
  EXPECT_FALSE(fs::exists("o.cubin"));
  fs::remove("r.c");
  // -Werror turns the arch warning into an error: nvlink stops after reading inputs.
  r = run_link({"-arch=sm_80", "-Werror", "--register-link-binaries=r.c", "zstd_rdc.o", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 255);
  EXPECT_EQ(r.messages, "nvlink error   : SM Arch ('sm_80') not found in 'zstd_rdc.o'\n");
  EXPECT_FALSE(fs::exists("r.c"));
}

TEST(Registration, UnwritableFileIsFatalAfterTheOutput) {
  ScratchDir dir;
  dir.copy("k2.o");
  LinkResult r = run_link({"-arch=sm_90", "--register-link-binaries=nodir/r.c", "k2.o", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink fatal   : Could not open output file 'nodir/r.c'\n");
  EXPECT_TRUE(fs::exists("o.cubin"));
}

TEST(Registration, ArchiveMembersAndPathIds) {
  ScratchDir dir;
  dir.copy("k2.o");
  dir.copy("zstd_rdc.o");
  ReadResult r = run_read({"-arch=sm_90", "zstd_rdc.o", input("libdev.a"), "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0) << r.messages;
  EXPECT_EQ(r.ids, (std::vector<std::string>{kIdK1, kIdK2}));
  EXPECT_EQ(r.inputs, (std::vector<std::string>{
                          "zstd_rdc.o", input("libdev.a") + ":k2_with_a_long_member_name.o"}));
  // A .fatbin input gets an id from its path.
  fs::copy_file(input("variants.fatbin"), "v.fatbin");
  r = run_read({"-arch=sm_90a", "v.fatbin", "-o", "o.cubin"});
  EXPECT_EQ(r.ids, (std::vector<std::string>{registration_id_for_path("v.fatbin")}));
  EXPECT_FALSE(r.host_refs);
}

// ---------------------------------------------------------------------------
// Input classification

TEST(InputFiles, ExtensionsDecideHowContentIsRead) {
  ScratchDir dir;
  std::string host = read_file(input("k2.o"));
  write_file("noext", host); // no extension: ignored, even a host object
  ReadResult r = run_read({"-arch=sm_90", "noext", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0);
  EXPECT_TRUE(r.inputs.empty());
  write_file("k2.xyz", host); // any other extension: host object
  r = run_read({"-arch=sm_90", "k2.xyz", "-o", "o.cubin"});
  EXPECT_EQ(r.inputs, std::vector<std::string>{"k2.xyz"});
  write_file("k2.so", host); // .so: a shared library, ignored
  r = run_read({"-arch=sm_90", "k2.so", "-o", "o.cubin"});
  EXPECT_TRUE(r.inputs.empty());
  write_file("host.cubin", host);
  r = run_read({"-arch=sm_90", "host.cubin", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink fatal   : cubin not a device elf?\n");
  write_file("text.cubin", std::string(100, 'x'));
  r = run_read({"-arch=sm_90", "text.cubin", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : cubin not an elf?\n");
  write_file("host.fatbin", host);
  r = run_read({"-arch=sm_90", "host.fatbin", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : fatbin wrong format?\n");
  write_file("text.ptx", std::string(100, 'x'));
  r = run_read({"-arch=sm_90", "text.ptx", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink error   : Binary format for key='0', ident='' is not recognized\n"
                        "nvlink fatal   : elfLink fatbinary error\n");
}

TEST(InputFiles, SizesAndUnreadableFiles) {
  ScratchDir dir;
  write_file("empty.o", "");
  write_file("short.o", "0123456789");
  write_file("lib8.a", "!<arch>\n");
  ReadResult r = run_read({"-arch=sm_90", "empty.o", "lib8.a", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0) << r.messages; // empty files and an empty archive are fine
  r = run_read({"-arch=sm_90", "short.o", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : Could not open input file 'short.o'\n");
  r = run_read({"-arch=sm_90", "missing.o", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : Could not open input file 'missing.o'\n");
  fs::create_directory("dir.o");
  r = run_read({"-arch=sm_90", "dir.o", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : Could not open input file 'dir.o'\n");
  std::string fb = read_file(input("variants.fatbin"));
  write_file("tiny.fatbin", fb.substr(0, 40));
  r = run_read({"-arch=sm_90", "tiny.fatbin", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : Could not open input file 'tiny.fatbin'\n");
}

TEST(InputFiles, NonRdcAndHostOnlyObjectsAddNothing) {
  ScratchDir dir;
  ReadResult r = run_read({"-arch=sm_90", input("nonrdc.o"), input("host.o"), "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.messages, "");
  EXPECT_TRUE(r.inputs.empty());
  EXPECT_TRUE(r.ids.empty());
  EXPECT_FALSE(r.host_refs); // they do switch host-reference pruning off
}

TEST(InputFiles, OnlyTheFirstContainerOfLdRObjects) {
  // ldr.o = ld -r zstd_rdc.o k2.o: only k1's container is read. Its host
  // reference lists are "\0\0" after ld -r, so nvlink also drops kernel k1
  // (and helper with it): only the variable stays undefined.
  ScratchDir dir;
  dir.copy("ldr.o");
  LinkResult r = run_link({"-arch=sm_90", "ldr.o", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 255);
  EXPECT_EQ(r.messages, "nvlink error   : Undefined reference to 'shared_counter' in 'ldr.o'\n");
  // Every module id is registered, though only the first container is linked.
  ReadResult rr = run_read({"-arch=sm_90", "ldr.o", "-o", "o.cubin"});
  EXPECT_EQ(rr.ids, (std::vector<std::string>{kIdK1, kIdK2}));
  r = run_link({"-arch=sm_90", "-ignore-host-info", "ldr.o", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink error   : Undefined reference to '_Z6helperi' in 'ldr.o'\n"
                        "nvlink error   : Undefined reference to 'shared_counter' in 'ldr.o'\n");
}

TEST(InputFiles, ArchWarnings) {
  ScratchDir dir;
  dir.copy("zstd_rdc.o");
  ReadResult r = run_read({"-arch=sm_80", "-w", "zstd_rdc.o", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink warning : SM Arch ('sm_80') not found in 'zstd_rdc.o'\n"); // not silenced by -w
  r = run_read({"-arch=sm_80", "-suppress-arch-warning", "zstd_rdc.o", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "");
  EXPECT_EQ(r.status, 0);
  // Archive members without code for the arch: silent, but still registered.
  r = run_read({"-arch=sm_80", input("libdev.a"), "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "");
  EXPECT_EQ(r.ids, std::vector<std::string>{kIdK2});
  EXPECT_TRUE(r.inputs.empty());
}

// ---------------------------------------------------------------------------
// Corrupt host objects and fatbins

TEST(CorruptInputs, HostObjects) {
  ScratchDir dir;
  std::string obj = read_file(input("zstd_rdc.o"));
  write_file("trunc.o", obj.substr(0, 300));
  ReadResult r = run_read({"-arch=sm_90", "trunc.o", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink fatal   : Could not find fatbin in 'trunc.o'\n"
                        "nvlink fatal   : elfLink internal error\n");
  std::string bad = obj;
  bad[58] = 40; // e_shentsize
  write_file("shent.o", bad);
  r = run_read({"-arch=sm_90", "shent.o", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : Could not find fatbin in 'shent.o'\n"
                        "nvlink fatal   : elfLink internal error\n");
  size_t fo = relfatbin_offset(obj);
  bad = obj;
  bad[fo] = 0; // container magic
  write_file("magic.o", bad);
  r = run_read({"-arch=sm_90", "magic.o", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : Could not find fatbin in 'magic.o'\n"
                        "nvlink fatal   : elfLink internal error\n");
  bad = obj;
  bad[fo + 4] = 2; // container version
  write_file("version.o", bad);
  r = run_read({"-arch=sm_90", "version.o", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink error   : Binary format for key='0', ident='' is not recognized\n"
                        "nvlink fatal   : elfLink fatbinary error\n");
}

TEST(CorruptInputs, CompressedPayloads) {
  ScratchDir dir;
  // zstd: "Uncompress failed" twice, then fatal.
  std::string obj = read_file(input("zstd_rdc.o"));
  size_t fo = relfatbin_offset(obj);
  std::string bad = obj;
  for (int i = 0; i < 16; i++)
    bad[fo + 16 + 0x40 + 8 + i] = static_cast<char>(0xde);
  write_file("zstd.o", bad);
  ReadResult r = run_read({"-arch=sm_90", "zstd.o", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink error   : Uncompress failed\nnvlink error   : Uncompress failed\n"
                        "nvlink fatal   : elfLink fatbinary error\n");
  // LZ4: once, then the object has no code for the arch; exit status 0.
  obj = read_file(input("lz4_rdc.o"));
  fo = relfatbin_offset(obj);
  bad = obj;
  for (int i = 0; i < 16; i++)
    bad[fo + 16 + 0x40 + 20 + i] = static_cast<char>(0xff);
  write_file("lz4.o", bad);
  r = run_read({"-arch=sm_90", "lz4.o", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.messages, "nvlink error   : Uncompress failed\n"
                        "nvlink warning : SM Arch ('sm_90') not found in 'lz4.o'\n");
  EXPECT_TRUE(r.inputs.empty());
  EXPECT_EQ(r.ids, std::vector<std::string>{kIdK1});
}

TEST(CorruptInputs, FatbinFiles) {
  ScratchDir dir;
  std::string fb = read_file(input("variants.fatbin"));
  std::string bad = fb;
  bad[0] = 0;
  write_file("magic.fatbin", bad);
  ReadResult r = run_read({"-arch=sm_90", "magic.fatbin", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink fatal   : fatbin wrong format?\n");
  bad = fb;
  bad[5] = 1; // version 0x100
  write_file("version.fatbin", bad);
  r = run_read({"-arch=sm_90", "version.fatbin", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink error   : Binary format for key='0', ident='' is not recognized\n"
                        "nvlink fatal   : elfLink fatbinary error\n");
  write_file("trail.fatbin", fb + std::string(64, '\x11'));
  r = run_read({"-arch=sm_90a", "trail.fatbin", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0) << r.messages;
  EXPECT_EQ(r.inputs, std::vector<std::string>{"trail.fatbin"});
}

TEST(CorruptInputs, LtoOnlyFatbinNeedsDlto) {
  ScratchDir dir;
  dir.copy("lto.fatbin");
  ReadResult r = run_read({"-arch=sm_90", "lto.fatbin", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink fatal   : LTO objects found, use -dlto\n");
}

// ---------------------------------------------------------------------------
// Archives

TEST(Archives, CorruptArchives) {
  ScratchDir dir;
  std::string k2 = read_file(input("k2.o"));
  std::string ok = make_archive({{"k2.o", k2}});
  write_file("trail.a", ok + "\n");
  ReadResult r = run_read({"-arch=sm_90", "trail.a", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink fatal   : unexpected archive format\nnvlink fatal   : elfLink internal error\n");
  std::string longnames = ok;
  longnames.replace(8, 16, "/4              ");
  write_file("longnames.a", longnames);
  r = run_read({"-arch=sm_90", "longnames.a", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : longnames header not found\nnvlink fatal   : elfLink internal error\n");
  std::string negative = ok;
  negative.replace(8 + 48, 10, "-5        ");
  write_file("negative.a", negative);
  r = run_read({"-arch=sm_90", "negative.a", "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : unexpected archive format\nnvlink fatal   : elfLink internal error\n");
}

TEST(Archives, MembersAreNamedAfterTheArchiveAndScanningStopsAtNonElf) {
  ScratchDir dir;
  std::string k1 = read_file(input("zstd_rdc.o")), k2 = read_file(input("k2.o"));
  write_file("libz.a", make_archive({{"k2.o", k2}, {"note.txt", "hello\n"}, {"k1.o", k1}}));
  ReadResult r = run_read({"-arch=sm_90", "libz.a", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0) << r.messages;
  EXPECT_EQ(r.inputs, std::vector<std::string>{"libz.a:k2.o"});
  // The same archive twice (any spelling) is read once.
  r = run_read({"-arch=sm_90", "libz.a", "./libz.a", "-L.", "-lz", "-o", "o.cubin"});
  EXPECT_EQ(r.inputs, std::vector<std::string>{"libz.a:k2.o"});
}

TEST(Archives, ThinArchiveMembersAreOpenedFromTheCurrentDirectory) {
  ScratchDir dir;
  dir.copy("libthin.a");
  ReadResult r = run_read({"-arch=sm_90", "libthin.a", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink fatal   : Could not open input file 'k2.o'\nnvlink fatal   : elfLink internal error\n");
  dir.copy("k2.o");
  dir.copy("host.o");
  r = run_read({"-arch=sm_90", "libthin.a", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0) << r.messages;
  EXPECT_EQ(r.inputs, std::vector<std::string>{"libthin.a:k2.o"});
}

TEST(Archives, SystemLibrariesArePulledWhileSymbolsAreUndefined) {
  // zstd_rdc.o (k1) needs helper and shared_counter from k2.o.
  ScratchDir dir;
  dir.copy("zstd_rdc.o");
  std::string k1 = read_file(input("zstd_rdc.o")), k2 = read_file(input("k2.o"));
  std::string host = read_file(input("host.o"));
  write_file("libxcudadevrt.a", make_archive({{"host.o", host}, {"k2.o", k2}, {"k1.o", k1}}));
  // By path, before the object that needs it: nothing undefined yet, nothing pulled.
  ReadResult r = run_read({"-arch=sm_90", "libxcudadevrt.a", "zstd_rdc.o", "-o", "o.cubin"});
  EXPECT_EQ(r.inputs, std::vector<std::string>{"zstd_rdc.o"});
  // After it: members in order until nothing is undefined (host.o, k2.o; not k1.o).
  r = run_read({"-arch=sm_90", "zstd_rdc.o", "libxcudadevrt.a", "-o", "o.cubin"});
  EXPECT_EQ(r.inputs, (std::vector<std::string>{"zstd_rdc.o", "libxcudadevrt.a:k2.o"}));
  EXPECT_EQ(r.ids, (std::vector<std::string>{kIdK1, kIdK2}));
  // -l libraries come after every other input.
  // (named after the -L directory as given: "-L." -> "./libxcudadevrt.a")
  r = run_read({"-arch=sm_90", "-L.", "-lxcudadevrt", "zstd_rdc.o", "-o", "o.cubin"});
  EXPECT_EQ(r.inputs, (std::vector<std::string>{"zstd_rdc.o", "./libxcudadevrt.a:k2.o"}));
  // -keep-system-libraries: every member, like a user archive.
  r = run_read({"-arch=sm_90", "-keep-system-libraries", "zstd_rdc.o", "libxcudadevrt.a", "-o", "o.cubin"});
  EXPECT_EQ(r.inputs,
            (std::vector<std::string>{"zstd_rdc.o", "libxcudadevrt.a:k2.o", "libxcudadevrt.a:k1.o"}));
}

// ---------------------------------------------------------------------------
// -L / -l

TEST(LibrarySearch, SkippingIncompatibleAndSearchOrder) {
  ScratchDir dir;
  fs::create_directories("d1");
  fs::create_directories("d2");
  write_file("d1/libq.a", "!<arch>\n");
  write_file("d2/libq.a", make_archive({{"k2.o", read_file(input("k2.o"))}}));
  ReadResult r = run_read({"-arch=sm_90", "-Ld1/", "-Ld2//", "-lq", input("zstd_rdc.o"), "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.messages, "nvlink warning : Skipping incompatible 'd1/libq.a' when searching for -lq\n");
  EXPECT_EQ(r.inputs, (std::vector<std::string>{input("zstd_rdc.o"), "d2/libq.a:k2.o"}));
  // -w does not silence it; -Werror makes it an error followed by a fatal one.
  r = run_read({"-arch=sm_90", "-w", "-Ld1", "-Ld2", "-lq", input("k2.o"), "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink warning : Skipping incompatible 'd1/libq.a' when searching for -lq\n");
  r = run_read({"-arch=sm_90", "-Werror", "-Ld1", "-Ld2", "-lq", input("k2.o"), "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.messages, "nvlink error   : Skipping incompatible 'd1/libq.a' when searching for -lq\n"
                        "nvlink fatal   : elfLink internal error\n");
  // An archive without a host-object member (only non-ELF data here) is incompatible too.
  write_file("d1/libc.a", make_archive({{"x.cubin", std::string(100, '\0')}}));
  r = run_read({"-arch=sm_90", "-Ld1", "-lc", input("k2.o"), "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink warning : Skipping incompatible 'd1/libc.a' when searching for -lc\n");
}

TEST(LibrarySearch, LibraryPathAndBadFiles) {
  ScratchDir dir;
  fs::create_directories("d2");
  write_file("d2/libq.a", make_archive({{"k2.o", read_file(input("k2.o"))}}));
  ::setenv("LIBRARY_PATH", "d2", 1);
  ReadResult r = run_read({"-arch=sm_90", "-lq", "-o", "o.cubin", input("host.o")});
  ::unsetenv("LIBRARY_PATH");
  EXPECT_EQ(r.inputs, std::vector<std::string>{"d2/libq.a:k2.o"});
  // Not found anywhere: silent.
  r = run_read({"-arch=sm_90", "-lnothere", input("host.o"), "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.messages, "");
  // A non-archive found through -l, and a directory.
  fs::create_directories("d3/libdir.a");
  fs::copy_file(input("host.o"), "d3/libobj.a");
  r = run_read({"-arch=sm_90", "-Ld3", "-lobj", input("host.o"), "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : unexpected archive format\nnvlink fatal   : elfLink internal error\n");
  r = run_read({"-arch=sm_90", "-Ld3", "-ldir", input("host.o"), "-o", "o.cubin"});
  EXPECT_EQ(r.messages, "nvlink fatal   : Memory allocation failure\n");
}

// ---------------------------------------------------------------------------
// Host-reference kernel pruning decisions (dead_code.h)

TEST(KernelFilter, HostReferenceLists) {
  ScratchDir dir;
  dir.copy("hostrefs.o");
  const std::vector<std::string> kernels = {"_Z2k3Pi", "k3c",
                                            "__nv_static_25__8362dce5_5_k3_cu__Z2k3Pi__Z3k3sPi", "_Z5otherPi"};
  ReadResult r = run_read({"-arch=sm_90", "hostrefs.o", "-o", "o.cubin"}, kernels);
  EXPECT_TRUE(r.host_refs);
  EXPECT_FALSE(r.kernel_patterns.empty());
  EXPECT_EQ(r.kept, (std::vector<std::string>{"_Z2k3Pi", "k3c",
                                              "__nv_static_25__8362dce5_5_k3_cu__Z2k3Pi__Z3k3sPi"}));
  // -ignore-host-info, or any input without host-reference lists: every kernel.
  r = run_read({"-arch=sm_90", "-ignore-host-info", "hostrefs.o", "-o", "o.cubin"}, kernels);
  EXPECT_EQ(r.kept, kernels);
  r = run_read({"-arch=sm_90", "hostrefs.o", input("host.o"), "-o", "o.cubin"}, kernels);
  EXPECT_EQ(r.kept, kernels);
  // Only empty kernel lists (zstd_rdc.o, k2.o launch nothing): every kernel.
  r = run_read({"-arch=sm_90", input("zstd_rdc.o"), input("k2.o"), "-o", "o.cubin"}, kernels);
  EXPECT_TRUE(r.host_refs);
  EXPECT_EQ(r.kept, kernels);
}

// The lists of a cudadevrt archive's members (any archive or host object
// whose file name contains "cudadevrt") do not switch host-reference pruning
// on, even with -keep-system-libraries; once another object's lists have,
// their patterns count too (probes with libcudadevrt.a, libxcudadevrt.a,
// cudadevrt.a, libfoo.a: docs/notes/inputs.md §10).
TEST(KernelFilter, CudadevrtListsDoNotSwitchPruningOn) {
  ScratchDir dir;
  const std::string hostrefs = read_file(input("hostrefs.o"));
  write_file("libxcudadevrt.a", make_archive({{"m.o", hostrefs}}));
  write_file("libfoo.a", make_archive({{"m.o", hostrefs}}));
  const std::vector<std::string> kernels = {"_Z2k3Pi", "_Z5otherPi"};
  // k2.o's lists are empty: the cudadevrt member's do not count.
  ReadResult r = run_read({"-arch=sm_90", "-keep-system-libraries", input("k2.o"),
                           "libxcudadevrt.a", "-o", "o.cubin"},
                          kernels);
  EXPECT_TRUE(r.host_refs);
  EXPECT_EQ(r.kept, kernels);
  // The same member in an archive of another name does.
  r = run_read({"-arch=sm_90", input("k2.o"), "libfoo.a", "-o", "o.cubin"}, kernels);
  EXPECT_EQ(r.kept, std::vector<std::string>{"_Z2k3Pi"});
  // Another object's lists switch pruning on (ldr.o's "\0\0" ones, with no
  // pattern); the cudadevrt member's patterns then keep _Z2k3Pi (nvlink
  // links _Z2k3Pi, k3c and the static kernel; ldr.o's and k2.o's go).
  r = run_read({"-arch=sm_90", "-keep-system-libraries", input("ldr.o"), input("k2.o"),
                "libxcudadevrt.a", "-o", "o.cubin"},
               {"_Z2k3Pi", "_Z2k2Pi"});
  EXPECT_EQ(r.kept, std::vector<std::string>{"_Z2k3Pi"});
}

TEST(KernelFilter, CudadevrtNames) {
  EXPECT_TRUE(is_cudadevrt_name("/usr/local/cuda/lib64/libcudadevrt.a"));
  EXPECT_TRUE(is_cudadevrt_name("libxcudadevrt.a"));
  EXPECT_TRUE(is_cudadevrt_name("dir/cudadevrt.a"));
  EXPECT_TRUE(is_cudadevrt_name("mycudadevrt.o"));
  EXPECT_FALSE(is_cudadevrt_name("libCUDADEVRT.a"));
  EXPECT_FALSE(is_cudadevrt_name("libcudadevr.a"));
  EXPECT_FALSE(is_cudadevrt_name("cudadevrt/libfoo.a"));
}

TEST(KernelFilter, KernelsUsedIsASubstringGlob) {
  const std::vector<std::string> kernels = {"_Z2kaPi", "_Z2kbPi"};
  ReadResult r = run_read({"-arch=sm_90", "-kernels-used=kb", input("k2.o"), "-o", "o.cubin"}, kernels);
  EXPECT_EQ(r.kept, std::vector<std::string>{"_Z2kbPi"});
  r = run_read({"-arch=sm_90", "-kernels-used=k*Pi", input("k2.o"), "-o", "o.cubin"}, kernels);
  EXPECT_EQ(r.kept, kernels);
  r = run_read({"-arch=sm_90", "-kernels-used=_Z2?bPi", input("k2.o"), "-o", "o.cubin"}, kernels);
  EXPECT_TRUE(r.kept.empty());
  // -variables-used alone keeps no kernel; -ignore-host-info does not matter.
  r = run_read({"-arch=sm_90", "-variables-used=x", "-ignore-host-info", input("k2.o"), "-o", "o.cubin"}, kernels);
  EXPECT_TRUE(r.kept.empty());
}

// ---------------------------------------------------------------------------
// PTX

TEST(PtxJit, ArgumentsFollowNvlink) {
  std::ostringstream err;
  Diagnostics diag(err);
  Options opts = parse_command_line({"nvlink", "-arch=sm_100f", "-Xptxas", "-O1,-v", "-maxrregcount=0x20",
                                     "x.ptx", "-o", "o"},
                                    diag);
  Context ctx(opts, diag);
  ctx.arch = *opts.arch;
  EXPECT_EQ(ptxas_arguments(ctx, "--compile-only  "),
            (std::vector<std::string>{"-arch", "sm_100", "-m64", "-c", "--compile-only", "-O1", "-v",
                                      "-maxrregcount", "32"}));
}

TEST(PtxJit, DeviceStackProtectorIsPassedLast) {
  // nvlink's -device-stack-protector value reaches ptxas after -Xptxas (so
  // it wins over a -Xptxas value, with ptxas's redefinition warning).
  for (std::string v : {"true", "false"}) {
    std::ostringstream err;
    Diagnostics diag(err);
    Options opts = parse_command_line({"nvlink", "-arch=sm_90", "-device-stack-protector=" + v, "-Xptxas",
                                       "--device-stack-protector=true", "x.ptx", "-o", "o"},
                                      diag);
    Context ctx(opts, diag);
    ctx.arch = *opts.arch;
    EXPECT_EQ(ptxas_arguments(ctx, ""),
              (std::vector<std::string>{"-arch", "sm_90", "-m64", "-c", "--device-stack-protector=true",
                                        "--device-stack-protector=" + v}));
  }
  // Not given: nothing is passed.
  std::ostringstream err;
  Diagnostics diag(err);
  Options opts = parse_command_line({"nvlink", "-arch=sm_90", "x.ptx", "-o", "o"}, diag);
  Context ctx(opts, diag);
  ctx.arch = *opts.arch;
  EXPECT_EQ(ptxas_arguments(ctx, ""), (std::vector<std::string>{"-arch", "sm_90", "-m64", "-c"}));
}

TEST(PtxJit, MissingPtxasIsAClearFatalError) {
  ScratchDir dir;
  write_file("k.ptx", ".version 9.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k()\n{\n ret;\n}\n");
  ::setenv("DLINK_PTXAS", "/nonexistent/ptxas", 1);
  ReadResult r = run_read({"-arch=sm_90", "k.ptx", "-o", "o.cubin"});
  ::unsetenv("DLINK_PTXAS");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.messages.find("nvlink fatal   : 'k.ptx' contains PTX that must be compiled, but ptxas was not found"),
            std::string::npos)
      << r.messages;
}

TEST(PtxJit, CompilesPtxFilesWithPtxas) {
  if (!find_ptxas())
    GTEST_SKIP() << "no ptxas found (set CUDA_HOME); the JIT test needs one";
  ScratchDir dir;
  ::setenv("TMPDIR", dir.path().c_str(), 1);
  write_file("k.ptx", "// comment first\n.version 9.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k()\n{\n ret;\n}\n");
  ReadResult r = run_read({"-arch=sm_90", "k.ptx", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 0) << r.messages;
  EXPECT_EQ(r.inputs, std::vector<std::string>{"k.ptx"});
  // ptxas's messages name the input as nvlink's in-process compiler does.
  write_file("bad.ptx", ".version 9.0\n.target sm_90\n.address_size 64\n"
                        ".visible .entry k()\n{\n bogus.instr;\n}\n");
  r = run_read({"-arch=sm_90", "bad.ptx", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.messages.find("ptxas application ptx input, line 6; error"), std::string::npos) << r.messages;
  EXPECT_NE(r.messages.find("nvlink fatal   : elfLink fatbinary error\n"), std::string::npos);
  // Before sm_90 a PTX file is compiled (its errors are fatal) but adds
  // nothing to the link: no input, no registration id, no end to pruning.
  write_file("k80.ptx", ".version 9.0\n.target sm_75\n.address_size 64\n"
                        ".visible .entry k()\n{\n ret;\n}\n");
  for (const char *arch : {"-arch=sm_75", "-arch=sm_80", "-arch=sm_89"}) {
    r = run_read({arch, "k80.ptx", "-o", "o.cubin"});
    EXPECT_EQ(r.status, 0) << arch << r.messages;
    EXPECT_TRUE(r.inputs.empty()) << arch;
    EXPECT_TRUE(r.ids.empty()) << arch;
  }
  r = run_read({"-arch=sm_90", "k80.ptx", "-o", "o.cubin"});
  EXPECT_EQ(r.inputs, std::vector<std::string>{"k80.ptx"});
  EXPECT_EQ(r.ids.size(), 1u);
  write_file("bad80.ptx", ".version 9.0\n.target sm_75\n.address_size 64\n"
                          ".visible .entry k()\n{\n bogus.instr;\n}\n");
  r = run_read({"-arch=sm_80", "bad80.ptx", "-o", "o.cubin"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.messages.find("nvlink fatal   : elfLink fatbinary error\n"), std::string::npos) << r.messages;
  ::unsetenv("TMPDIR");
  // The private temporary directories are gone.
  for (const auto &e : fs::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().filename().string().find("dlink-ptx."), std::string::npos) << e.path();
}
