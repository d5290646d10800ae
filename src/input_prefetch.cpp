// The parallel part of reading inputs (input_prefetch.h).
#include "input_prefetch.h"

#include "dlink/archive.h"
#include "dlink/fatbin.h"
#include "dlink/host_object.h"
#include "input_files.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <unordered_set>

namespace dlink::inputs {

namespace {

// A read-only mapping of an input file, unmapped with the link's arena.
class MappedFile {
public:
  MappedFile(void *addr, size_t size) : addr_(addr), size_(size) {}
  ~MappedFile() {
    if (addr_)
      ::munmap(addr_, size_);
  }
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

private:
  void *addr_;
  size_t size_;
};

} // namespace

Ext extension_of(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  size_t dot = base.rfind('.');
  if (dot == std::string_view::npos)
    return Ext::None;
  std::string_view ext = base.substr(dot + 1);
  if (ext == "cubin")
    return Ext::Cubin;
  if (ext == "fatbin")
    return Ext::Fatbin;
  if (ext == "ptx")
    return Ext::Ptx;
  if (ext == "o")
    return Ext::O;
  if (ext == "so")
    return Ext::So;
  return Ext::Other;
}

// ELF that nvlink treats as a host object: a valid class and data encoding
// and not EM_CUDA. (ELF magic with other class/data bytes is ignored.)
bool is_host_object_file(std::span<const u8> b) {
  return has_elf_magic(b) && b.size() >= 20 && (b[4] == 1 || b[4] == 2) &&
         (b[5] == 1 || b[5] == 2) && is_host_elf(b);
}

// PTX text: after blanks and comments, the ".version" directive.
bool is_ptx_text(std::span<const u8> bytes) {
  std::string_view s(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  size_t i = 0;
  while (i < s.size()) {
    char c = s[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
      i++;
    } else if (s.substr(i, 2) == "//") {
      size_t nl = s.find('\n', i);
      i = nl == std::string_view::npos ? s.size() : nl + 1;
    } else if (s.substr(i, 2) == "/*") {
      size_t end = s.find("*/", i + 2);
      i = end == std::string_view::npos ? s.size() : end + 2;
    } else {
      return s.substr(i, 8) == ".version";
    }
  }
  return false;
}

// The whole of a regular file, mapped (owned by `arena`), or nullopt.
std::optional<std::span<const u8>> map_file(Arena &arena, const std::string &path) {
  struct stat st0 {};
  if (::stat(path.c_str(), &st0) != 0 || !S_ISREG(st0.st_mode))
    return std::nullopt;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return std::nullopt;
  struct stat st {};
  std::optional<std::span<const u8>> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    size_t size = static_cast<size_t>(st.st_size);
    if (size == 0) {
      out.emplace();
    } else if (void *a = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0); a != MAP_FAILED) {
      arena.make<MappedFile>(a, size);
      out.emplace(static_cast<const u8 *>(a), size);
    }
  }
  ::close(fd);
  return out;
}

void Prefetch::run(Context &ctx) {
  // 1. Map the files named on the command line (each path once).
  std::vector<std::string> paths;
  {
    std::unordered_set<std::string> seen;
    for (const std::string &p : ctx.opts.input_files)
      if (!ctx.opts.embedded.inputs.count(p) && seen.insert(p).second)
        paths.push_back(p);
  }
  struct Mapped {
    bool ok = false;
    struct stat st {};
    void *addr = nullptr;
    size_t size = 0;
  };
  std::vector<Mapped> mapped(paths.size());
  ctx.par.for_each_index(paths.size(), [&](size_t i) {
    Mapped &m = mapped[i];
    // (Regular files only: opening a FIFO would wait for its writer.)
    struct stat st {};
    if (::stat(paths[i].c_str(), &st) != 0 || !S_ISREG(st.st_mode))
      return;
    int fd = ::open(paths[i].c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
      return;
    if (::fstat(fd, &m.st) == 0 && S_ISREG(m.st.st_mode)) {
      m.size = static_cast<size_t>(m.st.st_size);
      if (m.size == 0) {
        m.ok = true;
      } else {
        void *a = ::mmap(nullptr, m.size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (a != MAP_FAILED) {
          m.addr = a;
          m.ok = true;
        }
      }
    }
    ::close(fd);
  }, /*grain=*/32);
  for (size_t i = 0; i < paths.size(); ++i) {
    Mapped &m = mapped[i];
    if (!m.ok)
      continue;
    if (m.addr) {
      ctx.arena.make<MappedFile>(m.addr, m.size);
      ctx.mapped_inputs.emplace_back(static_cast<const u8 *>(m.addr), m.size);
    }
    files_.emplace(paths[i], File{m.st, {static_cast<const u8 *>(m.addr), m.addr ? m.size : 0}});
  }
  std::sort(ctx.mapped_inputs.begin(), ctx.mapped_inputs.end(),
            [](std::span<const u8> a, std::span<const u8> b) { return a.data() < b.data(); });

  // 2. What each file holds (archives: their members), in link order.
  std::vector<Unit> units;
  Arena scratch; // archive member lists
  for (const std::string &p : paths)
    if (const File *f = file(p))
      add_units(ctx, scratch, p, f->bytes, units);
  if (units.empty()) {
    ctx.par.settle_for_work(0);
    return;
  }
  for (Unit &u : units)
    u.arena = ctx.arena.make<Arena>();

  // The size of the link, for an automatic thread count: the bytes read at
  // once; a host object's or fatbin's counted 20 times (their device code is
  // compressed, about 4:1, and decompressing it costs more than parsing:
  // measured, ten host objects of 12 KiB link faster on 16 threads, ten
  // cubins of 45 KiB on one); a PTX file as half a small link (two ptxas
  // runs go in parallel). (A link that is all system-library members, or
  // nothing at all, stays small.)
  constexpr size_t kContainerWeight = 20;
  size_t work = 0;
  for (const Unit &u : units)
    work += u.kind == Kind::PtxText ? Parallelism::kSmallLinkBytes / 2
            : u.kind == Kind::Cubin ? u.bytes.size()
                                    : u.bytes.size() * kContainerWeight;
  ctx.par.settle_for_work(work);

  // 3. Parse, decompress and compile them all at once.
  ctx.par.for_each_index(units.size(), [&](size_t i) { compute(ctx, units[i]); });

  for (Unit &u : units) {
    for (auto &[k, v] : u.payloads)
      payloads_.emplace(k, v);
    for (auto &[k, v] : u.cubins)
      cubins_.emplace(k, std::move(v));
    for (auto &[k, v] : u.ptx)
      ptx_.emplace(std::move(k), std::move(v));
  }
}

namespace {

const size_t kPage = static_cast<size_t>(::sysconf(_SC_PAGESIZE));

using PageRange = std::pair<uintptr_t, uintptr_t>;

// The whole pages of [begin, end) (empty if none): the tail page counts
// where `end` is the end of its mapping (the rest of that page is the
// mapping's too).
PageRange whole_pages(const u8 *begin, const u8 *end, const u8 *mapping_end) {
  uintptr_t b = (reinterpret_cast<uintptr_t>(begin) + kPage - 1) & ~(kPage - 1);
  uintptr_t e = reinterpret_cast<uintptr_t>(end);
  e = end == mapping_end ? (e + kPage - 1) & ~(kPage - 1) : e & ~(kPage - 1);
  return b < e ? PageRange{b, e} : PageRange{0, 0};
}

// One madvise per run of adjacent ranges (consecutive mappings usually
// are).
void release(std::vector<PageRange> &ranges) {
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 0; i < ranges.size();) {
    auto [b, e] = ranges[i];
    for (i++; i < ranges.size() && ranges[i].first <= e; i++)
      e = std::max(e, ranges[i].second);
    if (b < e)
      ::madvise(reinterpret_cast<void *>(b), e - b, MADV_DONTNEED);
  }
}

} // namespace

void release_input_pages(const Context &ctx) { release_input_pages(ctx, ctx.mapped_inputs); }

void release_input_pages(const Context &ctx, std::span<const std::span<const u8>> inputs) {
  const auto &maps = ctx.mapped_inputs; // (sorted by address)
  std::vector<PageRange> ranges;
  for (std::span<const u8> bytes : inputs) {
    auto after = std::upper_bound(maps.begin(), maps.end(), bytes.data(),
                                  [](const u8 *p, std::span<const u8> m) { return p < m.data(); });
    if (after == maps.begin() || bytes.empty())
      continue;
    std::span<const u8> m = *(after - 1);
    const u8 *end = m.data() + m.size();
    if (bytes.data() + bytes.size() <= end)
      ranges.push_back(whole_pages(bytes.data(), bytes.data() + bytes.size(), end));
  }
  release(ranges);
}

FileKind classify_file(std::string_view path, std::span<const u8> bytes) {
  switch (extension_of(path)) {
  case Ext::None:
    return FileKind::Ignored;
  case Ext::Cubin:
    if (!has_elf_magic(bytes))
      return FileKind::CubinNotElf;
    return is_cuda_elf(bytes) ? FileKind::Cubin : FileKind::CubinNotDevice;
  case Ext::Fatbin:
    return is_fatbin(bytes) ? FileKind::Fatbin : FileKind::NotFatbin;
  case Ext::Ptx:
    if (is_cuda_elf(bytes))
      return FileKind::Cubin;
    if (is_fatbin(bytes))
      return FileKind::Fatbin;
    return is_ptx_text(bytes) ? FileKind::PtxText : FileKind::PtxNotRecognized;
  case Ext::O:
    if (is_cuda_elf(bytes))
      return FileKind::Cubin;
    [[fallthrough]];
  case Ext::Other:
    if (is_host_object_file(bytes))
      return FileKind::HostObject;
    [[fallthrough]];
  case Ext::So:
    return is_archive(bytes) ? FileKind::Archive : FileKind::Ignored;
  }
  return FileKind::Ignored;
}

void Prefetch::add_units(Context &ctx, Arena &scratch, const std::string &path,
                         std::span<const u8> bytes, std::vector<Unit> &units) {
  if (bytes.size() < kMinInputSize)
    return;
  auto add = [&](Kind k, std::span<const u8> b) { units.push_back(Unit{.kind = k, .bytes = b}); };
  auto archive = [&]() {
    // User archives only (every member is read); system libraries are read
    // on demand, and thin archives name other files.
    if (!is_archive(bytes) || is_thin_archive(bytes) ||
        (is_cudadevrt_name(path) && !ctx.opts.keep_system_libraries))
      return;
    std::vector<ArchiveMember> members;
    try {
      members = read_archive(scratch, bytes, path);
    } catch (...) {
      return;
    }
    for (const ArchiveMember &m : members)
      if (!is_cuda_elf(m.data) && is_host_object_file(m.data))
        add(Kind::Host, m.data);
  };
  switch (classify_file(path, bytes)) {
  case FileKind::Cubin:
    add(Kind::Cubin, bytes);
    return;
  case FileKind::Fatbin:
    add(Kind::Fatbin, bytes);
    return;
  case FileKind::PtxText:
    add(Kind::PtxText, bytes);
    return;
  case FileKind::HostObject:
    add(Kind::Host, bytes);
    return;
  case FileKind::Archive:
    archive();
    return;
  default:
    return; // nothing read, or an error the reader reports
  }
}

void Prefetch::parse_cubin(Unit &u, std::span<const u8> bytes) {
  try {
    ParsedCubin c;
    c.elf = read_elf(bytes, u.arena); // (small sections copied: elf.h)
    auto symtab = c.elf.find_section(".symtab");
    if (!symtab)
      return;
    c.symbols = read_symbols(c.elf, c.elf.sections[*symtab]);
    u.cubins.emplace_back(key_of(bytes), std::move(c));
  } catch (...) {
  }
}

void Prefetch::use_fatbin(const Context &ctx, Unit &u, std::span<const u8> bytes) {
  FatbinReadOptions options;
  options.first_container_only = true;
  options.decompress = false;
  std::vector<FatbinEntry> entries = read_fatbin(*u.arena, bytes, options);
  const FatbinEntry *chosen = select_fatbin_entry(entries, ctx.arch);
  if (!chosen)
    return;
  FatbinEntry entry = *chosen;
  decompress_fatbin_entry(*u.arena, entry);
  if (entry.compressed())
    u.payloads.emplace_back(key_of(entry.stored), entry.payload);
  if (entry.is_ptx()) {
    std::string_view text = entry.ptx_text();
    u.ptx.emplace_back(PtxKey{text.data(), text.size(), std::string(entry.ptxas_options)},
                       run_ptxas(ctx, text, entry.ptxas_options));
    return;
  }
  parse_cubin(u, entry.payload);
}

void Prefetch::compute(const Context &ctx, Unit &u) {
  try {
    switch (u.kind) {
    case Kind::Cubin:
      parse_cubin(u, u.bytes);
      return;
    case Kind::Fatbin:
      use_fatbin(ctx, u, u.bytes);
      return;
    case Kind::Host: {
      HostObject ho = dlink::read_host_object(u.bytes);
      if (ho.is_relocatable() && ho.has_relfatbin && is_fatbin(ho.relfatbin_to_eof))
        use_fatbin(ctx, u, ho.relfatbin_to_eof);
      return;
    }
    case Kind::PtxText: {
      // Targets before sm_90 compile it too (and link nothing of it).
      std::string_view text(reinterpret_cast<const char *>(u.bytes.data()), u.bytes.size());
      text = text.substr(0, text.find('\0'));
      u.ptx.emplace_back(PtxKey{text.data(), text.size(), std::string()}, run_ptxas(ctx, text, ""));
      return;
    }
    }
  } catch (...) {
    // Whatever failed is read again in link order, which reports it.
  }
}

} // namespace dlink::inputs
