// EIATTR records (eiattr.h): names, parsing, encoding and readable rendering.
//
// The name table is nvlink 13.0.88's own (formats.md §5.2); codes it does not
// know render as "EIATTR_0x61". parse_eiattrs() checks every header and SVAL
// size against the section bytes, so truncated or corrupt sections raise
// InputError instead of reading past the end. The value of NVAL/BVAL/HVAL
// records is kept as the raw u16 after the code, so parse + encode is an
// exact round trip. format_eiattr_value() knows the payload layouts of
// formats.md §5.3 and falls back to hex words for everything else.
#include "dlink/eiattr.h"

#include <fmt/format.h>

#include <array>
#include <string>

namespace dlink {

namespace {

constexpr std::array<std::string_view, 0x60> kEiattrNames = {
    "EIATTR_ERROR",
    "EIATTR_PAD",
    "EIATTR_IMAGE_SLOT",
    "EIATTR_JUMPTABLE_RELOCS",
    "EIATTR_CTAIDZ_USED",
    "EIATTR_MAX_THREADS",
    "EIATTR_IMAGE_OFFSET",
    "EIATTR_IMAGE_SIZE",
    "EIATTR_TEXTURE_NORMALIZED",
    "EIATTR_SAMPLER_INIT",
    "EIATTR_PARAM_CBANK",
    "EIATTR_SMEM_PARAM_OFFSETS",
    "EIATTR_CBANK_PARAM_OFFSETS",
    "EIATTR_SYNC_STACK",
    "EIATTR_TEXID_SAMPID_MAP",
    "EIATTR_EXTERNS",
    "EIATTR_REQNTID",
    "EIATTR_FRAME_SIZE",
    "EIATTR_MIN_STACK_SIZE",
    "EIATTR_SAMPLER_FORCE_UNNORMALIZED",
    "EIATTR_BINDLESS_IMAGE_OFFSETS",
    "EIATTR_BINDLESS_TEXTURE_BANK",
    "EIATTR_BINDLESS_SURFACE_BANK",
    "EIATTR_KPARAM_INFO",
    "EIATTR_SMEM_PARAM_SIZE",
    "EIATTR_CBANK_PARAM_SIZE",
    "EIATTR_QUERY_NUMATTRIB",
    "EIATTR_MAXREG_COUNT",
    "EIATTR_EXIT_INSTR_OFFSETS",
    "EIATTR_S2RCTAID_INSTR_OFFSETS",
    "EIATTR_CRS_STACK_SIZE",
    "EIATTR_NEED_CNP_WRAPPER",
    "EIATTR_NEED_CNP_PATCH",
    "EIATTR_EXPLICIT_CACHING",
    "EIATTR_ISTYPEP_USED",
    "EIATTR_MAX_STACK_SIZE",
    "EIATTR_SUQ_USED",
    "EIATTR_LD_CACHEMOD_INSTR_OFFSETS",
    "EIATTR_LOAD_CACHE_REQUEST",
    "EIATTR_ATOM_SYS_INSTR_OFFSETS",
    "EIATTR_COOP_GROUP_INSTR_OFFSETS",
    "EIATTR_COOP_GROUP_MASK_REGIDS",
    "EIATTR_SW1850030_WAR",
    "EIATTR_WMMA_USED",
    "EIATTR_HAS_PRE_V10_OBJECT",
    "EIATTR_ATOMF16_EMUL_INSTR_OFFSETS",
    "EIATTR_ATOM16_EMUL_INSTR_REG_MAP",
    "EIATTR_REGCOUNT",
    "EIATTR_SW2393858_WAR",
    "EIATTR_INT_WARP_WIDE_INSTR_OFFSETS",
    "EIATTR_SHARED_SCRATCH",
    "EIATTR_STATISTICS",
    "EIATTR_INDIRECT_BRANCH_TARGETS",
    "EIATTR_SW2861232_WAR",
    "EIATTR_SW_WAR",
    "EIATTR_CUDA_API_VERSION",
    "EIATTR_NUM_MBARRIERS",
    "EIATTR_MBARRIER_INSTR_OFFSETS",
    "EIATTR_COROUTINE_RESUME_OFFSETS",
    "EIATTR_SAM_REGION_STACK_SIZE",
    "EIATTR_PER_REG_TARGET_PERF_STATS",
    "EIATTR_CTA_PER_CLUSTER",
    "EIATTR_EXPLICIT_CLUSTER",
    "EIATTR_MAX_CLUSTER_RANK",
    "EIATTR_INSTR_REG_MAP",
    "EIATTR_RESERVED_SMEM_USED",
    "EIATTR_RESERVED_SMEM_0_SIZE",
    "EIATTR_UCODE_SECTION_DATA",
    "EIATTR_UNUSED_LOAD_BYTE_OFFSET",
    "EIATTR_KPARAM_INFO_V2",
    "EIATTR_SYSCALL_OFFSETS",
    "EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS",
    "EIATTR_GRAPHICS_GLOBAL_CBANK",
    "EIATTR_SHADER_TYPE",
    "EIATTR_VRC_CTA_INIT_COUNT",
    "EIATTR_TOOLS_PATCH_FUNC",
    "EIATTR_NUM_BARRIERS",
    "EIATTR_TEXMODE_INDEPENDENT",
    "EIATTR_PERF_STATISTICS",
    "EIATTR_AT_ENTRY_FRAGEMENTS",
    "EIATTR_SPARSE_MMA_MASK",
    "EIATTR_TCGEN05_1CTA_USED",
    "EIATTR_TCGEN05_2CTA_USED",
    "EIATTR_GEN_ERRBAR_AT_EXIT",
    "EIATTR_REG_RECONFIG",
    "EIATTR_ANNOTATIONS",
    "EIATTR_UNKNOWN",
    "EIATTR_STACK_CANARY_TRAP_OFFSETS",
    "EIATTR_STUB_FUNCTION_KIND",
    "EIATTR_LOCAL_CTA_ASYNC_STORE_OFFSETS",
    "EIATTR_MERCURY_FINALIZER_OPTIONS",
    "EIATTR_BLOCKS_ARE_CLUSTERS",
    "EIATTR_SANITIZE",
    "EIATTR_SYSCALLS_FALLBACK",
    "EIATTR_CUDA_REQ",
    "EIATTR_MERCURY_ISA_VERSION",
};

// In the order the names appear in nvlink; see eicompat_name().
constexpr std::array<std::string_view, 11> kEicompatNames = {
    "EICOMPAT_ATTR_ERROR",
    "EICOMPAT_ATTR_PAD",
    "EICOMPAT_ATTR_ISA_CLASS",
    "EICOMPAT_ATTR_INST_TENSORMAP_V1",
    "EICOMPAT_ATTR_INST_TCGEN05_MMA_DEPRECATED",
    "EICOMPAT_ATTR_INST_TCGEN05_MMA",
    "EICOMPAT_ATTR_ENABLE_OPPORTUNISTIC_FINALIZATION",
    "EICOMPAT_ATTR_MERCURY_ISA_MAJOR_MINOR_VERSION",
    "EICOMPAT_ATTR_MERCURY_ISA_PATCH_VERSION",
    "EICOMPAT_ATTR_CUDA_ACCELERATOR_TARGET",
    "EICOMPAT_ATTR_CAN_FASTPATH_FINALIZE",
};

// "PREFIX0x61" names for unknown codes, built once.
std::array<std::string, 256> make_hex_names(std::string_view prefix) {
  std::array<std::string, 256> out;
  for (size_t i = 0; i < out.size(); i++)
    out[i] = fmt::format("{}0x{:02x}", prefix, i);
  return out;
}

// Hex words of a payload; a trailing partial word is shown byte-wise.
std::string hex_words(std::span<const u8> p) {
  std::string out;
  size_t i = 0;
  for (; i + 4 <= p.size(); i += 4)
    out += fmt::format("{}0x{:x}", out.empty() ? "" : " ", read_le<u32>(&p[i]));
  for (; i < p.size(); i++)
    out += fmt::format("{}{:02x}", out.empty() ? "" : " ", p[i]);
  return out.empty() ? "(empty)" : out;
}

std::string sym_ref(u32 index, const SymbolNamer &sym_name) {
  std::string name = sym_name ? sym_name(index) : std::string();
  return name.empty() ? fmt::format("{}", index) : fmt::format("{} ({})", index, name);
}

// Payload kinds of SVAL records.
enum class Layout {
  Words,        // u32 list, decimal-ish values
  Offsets,      // u32 code offsets, hex
  SymList,      // u32 symbol indices
  SymValue,     // u32 sym, u32 value
  Xyz,          // u32 x, y, z
  ParamCbank,   // u32 sym, u16 offset, u16 size
  KparamInfo,   // u32 index, u16 ordinal, u16 offset, u32 flags/size word
  OffsetPairs,  // (u32 offset, u32 value) pairs
  SamplerInit,  // u32 sym, u32 init word
  Opaque,       // raw hex
};

Layout layout_of(u8 attr) {
  switch (attr) {
  case EIATTR_REGCOUNT:
  case EIATTR_FRAME_SIZE:
  case EIATTR_MIN_STACK_SIZE:
  case EIATTR_MAX_STACK_SIZE:
    return Layout::SymValue;
  case EIATTR_EXTERNS:
    return Layout::SymList;
  case EIATTR_MAX_THREADS:
  case EIATTR_REQNTID:
  case EIATTR_CTA_PER_CLUSTER:
    return Layout::Xyz;
  case EIATTR_PARAM_CBANK:
    return Layout::ParamCbank;
  case EIATTR_KPARAM_INFO:
    return Layout::KparamInfo;
  case EIATTR_SAMPLER_INIT:
    return Layout::SamplerInit;
  case EIATTR_ATOM16_EMUL_INSTR_REG_MAP:
  case EIATTR_ANNOTATIONS:
    return Layout::OffsetPairs;
  case EIATTR_EXIT_INSTR_OFFSETS:
  case EIATTR_S2RCTAID_INSTR_OFFSETS:
  case EIATTR_LD_CACHEMOD_INSTR_OFFSETS:
  case EIATTR_ATOM_SYS_INSTR_OFFSETS:
  case EIATTR_COOP_GROUP_INSTR_OFFSETS:
  case EIATTR_ATOMF16_EMUL_INSTR_OFFSETS:
  case EIATTR_INT_WARP_WIDE_INSTR_OFFSETS:
  case EIATTR_INDIRECT_BRANCH_TARGETS:
  case EIATTR_MBARRIER_INSTR_OFFSETS:
  case EIATTR_COROUTINE_RESUME_OFFSETS:
  case EIATTR_SYSCALL_OFFSETS:
  case EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS:
  case EIATTR_STACK_CANARY_TRAP_OFFSETS:
  case EIATTR_LOCAL_CTA_ASYNC_STORE_OFFSETS:
  case EIATTR_BINDLESS_IMAGE_OFFSETS:
  case EIATTR_JUMPTABLE_RELOCS:
  case EIATTR_UNUSED_LOAD_BYTE_OFFSET:
    return Layout::Offsets;
  case EIATTR_MERCURY_FINALIZER_OPTIONS:
  case EIATTR_UCODE_SECTION_DATA:
    return Layout::Opaque;
  default:
    return Layout::Words;
  }
}

std::string format_sval(const EiRecord &rec, const SymbolNamer &sym_name) {
  auto p = rec.payload;
  size_t n = p.size();
  auto u32_at = [&](size_t off) { return read_le<u32>(&p[off]); };
  auto u16_at = [&](size_t off) { return read_le<u16>(&p[off]); };
  switch (layout_of(rec.attr)) {
  case Layout::SymValue:
    if (n != 8)
      break;
    return fmt::format("sym {} {} {}", sym_ref(u32_at(0), sym_name),
                       rec.attr == EIATTR_REGCOUNT ? "regs" : "bytes", u32_at(4));
  case Layout::SymList: {
    if (n % 4)
      break;
    std::string out = "syms";
    for (size_t i = 0; i < n; i += 4)
      out += fmt::format("{} {}", i ? "," : "", sym_ref(u32_at(i), sym_name));
    return out;
  }
  case Layout::Xyz:
    if (n != 12)
      break;
    return fmt::format("x {} y {} z {}", u32_at(0), u32_at(4), u32_at(8));
  case Layout::ParamCbank:
    if (n != 8)
      break;
    return fmt::format("sym {} offset 0x{:x} size 0x{:x}", sym_ref(u32_at(0), sym_name),
                       u16_at(4), u16_at(6));
  case Layout::KparamInfo: {
    if (n != 12)
      break;
    u32 word = u32_at(8);
    return fmt::format("index {} ordinal {} offset 0x{:x} size {} space 0x{:x} flags 0x{:03x}",
                       u32_at(0), u16_at(4), u16_at(6), word >> 18, (word >> 12) & 0x1f,
                       word & 0xfff);
  }
  case Layout::SamplerInit:
    if (n != 8)
      break;
    return fmt::format("sym {} init 0x{:08x}", sym_ref(u32_at(0), sym_name), u32_at(4));
  case Layout::OffsetPairs: {
    if (n % 8)
      break;
    std::string out;
    for (size_t i = 0; i < n; i += 8)
      out += fmt::format("{}(0x{:x}, 0x{:x})", i ? " " : "", u32_at(i), u32_at(i + 4));
    return out.empty() ? "(empty)" : out;
  }
  case Layout::Offsets: {
    if (n % 4)
      break;
    std::string out = "offsets";
    for (size_t i = 0; i < n; i += 4)
      out += fmt::format(" 0x{:x}", u32_at(i));
    return n ? out : "(empty)";
  }
  case Layout::Opaque:
  case Layout::Words:
    break;
  }
  return hex_words(p);
}

} // namespace

std::string_view eiattr_name(u8 attr) {
  if (attr < kEiattrNames.size())
    return kEiattrNames[attr];
  static const std::array<std::string, 256> names = make_hex_names("EIATTR_");
  return names[attr];
}

std::string_view eicompat_name(u8 attr) {
  if (attr < kEicompatNames.size())
    return kEicompatNames[attr];
  static const std::array<std::string, 256> names = make_hex_names("EICOMPAT_");
  return names[attr];
}

std::vector<EiRecord> parse_eiattrs(std::span<const u8> bytes) {
  std::vector<EiRecord> out;
  size_t pos = 0;
  while (pos < bytes.size()) {
    if (bytes.size() - pos < 4)
      throw InputError(fmt::format("truncated EIATTR record at offset 0x{:x}", pos));
    EiRecord rec;
    rec.format = bytes[pos];
    rec.attr = bytes[pos + 1];
    rec.value = read_le<u16>(&bytes[pos + 2]);
    if (rec.format < EIFMT_NVAL || rec.format > EIFMT_SVAL)
      throw InputError(
          fmt::format("bad EIATTR format {} at offset 0x{:x}", rec.format, pos));
    pos += 4;
    if (rec.format == EIFMT_SVAL) {
      if (rec.value > bytes.size() - pos)
        throw InputError(fmt::format("{} payload of {} bytes extends past the section",
                                     eiattr_name(rec.attr), rec.value));
      rec.payload = bytes.subspan(pos, rec.value);
      pos += rec.value;
    }
    out.push_back(rec);
  }
  return out;
}

std::span<const u8> encode_eiattrs(Arena &arena, const std::vector<EiRecord> &records) {
  size_t total = 0;
  for (const auto &rec : records) {
    if (rec.format == EIFMT_SVAL && rec.payload.size() > 0xffff)
      throw InputError(fmt::format("{} payload too large", eiattr_name(rec.attr)));
    total += rec.encoded_size();
  }
  auto out = arena.alloc(total);
  size_t pos = 0;
  for (const auto &rec : records) {
    out[pos] = rec.format;
    out[pos + 1] = rec.attr;
    bool sval = rec.format == EIFMT_SVAL;
    write_le<u16>(&out[pos + 2], sval ? static_cast<u16>(rec.payload.size()) : rec.value);
    pos += 4;
    if (sval && !rec.payload.empty()) {
      std::memcpy(&out[pos], rec.payload.data(), rec.payload.size());
      pos += rec.payload.size();
    }
  }
  return out;
}

std::string format_eiattr_value(const EiRecord &rec, const SymbolNamer &sym_name) {
  switch (rec.format) {
  case EIFMT_NVAL:
    return rec.value ? fmt::format("(value 0x{:x})", rec.value) : std::string();
  case EIFMT_BVAL:
    return fmt::format("{}", rec.value & 0xff) +
           (rec.value >> 8 ? fmt::format(" (pad 0x{:x})", rec.value >> 8) : std::string());
  case EIFMT_HVAL:
    if (rec.attr == EIATTR_MERCURY_ISA_VERSION)
      return fmt::format("0x{:04x} ({}.{})", rec.value, rec.value >> 8, rec.value & 0xff);
    return fmt::format("0x{:x} ({})", rec.value, rec.value);
  case EIFMT_SVAL:
    return format_sval(rec, sym_name);
  default:
    return fmt::format("(format {})", rec.format);
  }
}

std::string format_eicompat_value(const EiRecord &rec) {
  switch (rec.format) {
  case EIFMT_NVAL:
    return rec.value ? fmt::format("(value 0x{:x})", rec.value) : std::string();
  case EIFMT_BVAL:
    return fmt::format("{}", rec.value & 0xff);
  case EIFMT_HVAL:
    return fmt::format("0x{:04x}", rec.value);
  case EIFMT_SVAL:
    return hex_words(rec.payload);
  default:
    return fmt::format("(format {})", rec.format);
  }
}

} // namespace dlink
