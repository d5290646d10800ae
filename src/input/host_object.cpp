// Generic ELF reader for host relocatable objects (host_object.h).
#include "dlink/host_object.h"

#include <fmt/format.h>

namespace dlink {

namespace {

constexpr u16 kEmCuda = 190;
constexpr u32 kShtNobits = 8;
constexpr u16 kShnXindex = 0xffff;

class Reader {
public:
  Reader(std::span<const u8> bytes, bool be) : b_(bytes), be_(be) {}
  template <typename T>
  T get(u64 off) const {
    T v = read_le<T>(b_.data() + off);
    if (be_) {
      T r = 0;
      for (size_t i = 0; i < sizeof(T); i++)
        r = static_cast<T>((r << 8) | ((v >> (8 * i)) & 0xff));
      v = r;
    }
    return v;
  }

private:
  std::span<const u8> b_;
  bool be_;
};

struct Shdr {
  u32 name = 0;
  u32 type = 0;
  u64 offset = 0;
  u64 size = 0;
  u32 link = 0;
};

bool in_range(std::span<const u8> bytes, u64 offset, u64 size) {
  return offset <= bytes.size() && size <= bytes.size() - offset;
}

} // namespace

bool HostRefs::empty() const {
  return kernels_internal.empty() && kernels_external.empty() && device_internal.empty() &&
         device_external.empty() && constant_internal.empty() && constant_external.empty();
}

bool is_host_elf(std::span<const u8> bytes) {
  if (bytes.size() < 20 || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' ||
      bytes[3] != 'F')
    return false;
  if (bytes[5] != 1 && bytes[5] != 2)
    return true;
  Reader r(bytes, bytes[5] == 2);
  return r.get<u16>(18) != kEmCuda;
}

std::vector<std::string_view> split_nul_list(std::span<const u8> bytes) {
  std::vector<std::string_view> out;
  const char *p = reinterpret_cast<const char *>(bytes.data());
  size_t start = 0;
  for (size_t i = 0; i <= bytes.size(); i++) {
    if (i == bytes.size() || p[i] == '\0') {
      if (i > start)
        out.emplace_back(p + start, i - start);
      start = i + 1;
    }
  }
  return out;
}

bool host_ref_matches(std::string_view pattern, std::string_view name) {
  // Iterative wildcard match with backtracking to the last '*'.
  size_t p = 0, n = 0, star = std::string_view::npos, mark = 0;
  while (n < name.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = n;
    } else if (p < pattern.size() && pattern[p] == name[n]) {
      p++;
      n++;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      n = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*')
    p++;
  return p == pattern.size();
}

HostObject read_host_object(std::span<const u8> bytes) {
  auto fail = [](const std::string &why) { return HostObjectError(why); };
  if (bytes.size() < 16 || bytes[0] != 0x7f || bytes[1] != 'E' || bytes[2] != 'L' ||
      bytes[3] != 'F')
    throw fail("not an ELF file");
  if (bytes[4] != 1 && bytes[4] != 2)
    throw fail("unknown ELF class");
  if (bytes[5] != 1 && bytes[5] != 2)
    throw fail("unknown ELF data encoding");
  HostObject obj;
  obj.is64 = bytes[4] == 2;
  obj.big_endian = bytes[5] == 2;
  const size_t ehsize = obj.is64 ? 64 : 52;
  const size_t shentsize_expected = obj.is64 ? 64 : 40;
  if (bytes.size() < ehsize)
    throw fail("truncated ELF header");
  Reader r(bytes, obj.big_endian);
  obj.type = r.get<u16>(16);
  obj.machine = r.get<u16>(18);
  u64 shoff = obj.is64 ? r.get<u64>(40) : r.get<u32>(32);
  u16 shentsize = r.get<u16>(obj.is64 ? 58 : 46);
  u64 shnum = r.get<u16>(obj.is64 ? 60 : 48);
  u32 shstrndx = r.get<u16>(obj.is64 ? 62 : 50);

  auto read_shdr = [&](u64 i) {
    u64 o = shoff + i * shentsize_expected;
    Shdr s;
    s.name = r.get<u32>(o);
    s.type = r.get<u32>(o + 4);
    if (obj.is64) {
      s.offset = r.get<u64>(o + 24);
      s.size = r.get<u64>(o + 32);
      s.link = r.get<u32>(o + 40);
    } else {
      s.offset = r.get<u32>(o + 16);
      s.size = r.get<u32>(o + 20);
      s.link = r.get<u32>(o + 24);
    }
    return s;
  };

  // nvlink checks e_shentsize even when there are no sections.
  if (shentsize != shentsize_expected)
    throw fail("unexpected section header size");
  if (shoff == 0) {
    if (shnum == 0)
      return obj;
    throw fail("section header table at offset 0");
  }
  if (!in_range(bytes, shoff, shentsize_expected))
    throw fail("section header table extends past the end of the file");
  Shdr first = read_shdr(0);
  if (shnum == 0)
    shnum = first.size; // extended numbering
  if (shstrndx == kShnXindex)
    shstrndx = first.link;
  if (shnum == 0)
    return obj;
  if (shnum > bytes.size() / shentsize_expected ||
      !in_range(bytes, shoff, shnum * shentsize_expected))
    throw fail("section header table extends past the end of the file");

  std::vector<Shdr> sections(shnum);
  for (u64 i = 0; i < shnum; i++) {
    sections[i] = read_shdr(i);
    if (sections[i].type != kShtNobits && !in_range(bytes, sections[i].offset, sections[i].size))
      throw fail(fmt::format("section {} extends past the end of the file", i));
  }
  if (shstrndx >= shnum)
    return obj; // no section names: nvlink finds no device code
  const Shdr &strtab = sections[shstrndx];
  std::span<const u8> names;
  if (strtab.type != kShtNobits)
    names = bytes.subspan(strtab.offset, strtab.size);
  auto name_of = [&](const Shdr &s) -> std::string_view {
    if (s.name >= names.size())
      return {};
    const char *p = reinterpret_cast<const char *>(names.data()) + s.name;
    size_t n = 0;
    while (s.name + n < names.size() && p[n] != '\0')
      n++;
    return {p, n};
  };
  auto data_of = [&](const Shdr &s) -> std::span<const u8> {
    if (!in_range(bytes, s.offset, s.size))
      return {};
    return bytes.subspan(s.offset, s.size);
  };

  for (const Shdr &s : sections) {
    std::string_view name = name_of(s);
    if (name == "__nv_relfatbin") {
      if (obj.has_relfatbin)
        continue;
      if (s.offset > bytes.size())
        throw fail("__nv_relfatbin starts past the end of the file");
      obj.has_relfatbin = true;
      obj.relfatbin = data_of(s);
      obj.relfatbin_to_eof = bytes.subspan(s.offset);
    } else if (name == ".nv_fatbin") {
      if (obj.has_nv_fatbin)
        continue;
      obj.has_nv_fatbin = true;
      obj.nv_fatbin = data_of(s);
    } else if (name == "__nv_module_id") {
      if (!obj.module_ids.empty())
        continue;
      obj.module_ids = split_nul_list(data_of(s));
      if (!obj.module_ids.empty())
        obj.module_id = obj.module_ids.front();
    } else if (name.starts_with(".nvHR") && name.size() == 7) {
      std::vector<std::string_view> *list = nullptr;
      std::string_view code = name.substr(5);
      if (code == "KI")
        list = &obj.host_refs.kernels_internal;
      else if (code == "KE")
        list = &obj.host_refs.kernels_external;
      else if (code == "DI")
        list = &obj.host_refs.device_internal;
      else if (code == "DE")
        list = &obj.host_refs.device_external;
      else if (code == "CI")
        list = &obj.host_refs.constant_internal;
      else if (code == "CE")
        list = &obj.host_refs.constant_external;
      if (code == "KI")
        obj.host_refs.kernels_internal_size += s.size;
      else if (code == "KE")
        obj.host_refs.kernels_external_size += s.size;
      if (list) {
        obj.host_refs.present = true;
        auto items = split_nul_list(data_of(s));
        list->insert(list->end(), items.begin(), items.end());
      }
    }
  }
  return obj;
}

} // namespace dlink
