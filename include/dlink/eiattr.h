// EIATTR records of .nv.info / .nv.info.<function> / .nv.compat sections.
//
// A record is a one-byte format, a one-byte attribute code and a payload:
// NVAL (no value, 4 bytes in all), BVAL (one byte + pad), HVAL (u16), or
// SVAL (u16 size followed by `size` bytes). Records are packed back to back.
#pragma once

#include "dlink/arena.h"
#include "dlink/common.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace dlink {

enum EiFormat : u8 { EIFMT_NVAL = 1, EIFMT_BVAL = 2, EIFMT_HVAL = 3, EIFMT_SVAL = 4 };

// Attribute codes of nvlink 13.0.88 (formats.md §5.2).
enum EiAttr : u8 {
  EIATTR_ERROR = 0x00,
  EIATTR_PAD = 0x01,
  EIATTR_IMAGE_SLOT = 0x02,
  EIATTR_JUMPTABLE_RELOCS = 0x03,
  EIATTR_CTAIDZ_USED = 0x04,
  EIATTR_MAX_THREADS = 0x05,
  EIATTR_IMAGE_OFFSET = 0x06,
  EIATTR_IMAGE_SIZE = 0x07,
  EIATTR_TEXTURE_NORMALIZED = 0x08,
  EIATTR_SAMPLER_INIT = 0x09,
  EIATTR_PARAM_CBANK = 0x0a,
  EIATTR_SMEM_PARAM_OFFSETS = 0x0b,
  EIATTR_CBANK_PARAM_OFFSETS = 0x0c,
  EIATTR_SYNC_STACK = 0x0d,
  EIATTR_TEXID_SAMPID_MAP = 0x0e,
  EIATTR_EXTERNS = 0x0f,
  EIATTR_REQNTID = 0x10,
  EIATTR_FRAME_SIZE = 0x11,
  EIATTR_MIN_STACK_SIZE = 0x12,
  EIATTR_SAMPLER_FORCE_UNNORMALIZED = 0x13,
  EIATTR_BINDLESS_IMAGE_OFFSETS = 0x14,
  EIATTR_BINDLESS_TEXTURE_BANK = 0x15,
  EIATTR_BINDLESS_SURFACE_BANK = 0x16,
  EIATTR_KPARAM_INFO = 0x17,
  EIATTR_SMEM_PARAM_SIZE = 0x18,
  EIATTR_CBANK_PARAM_SIZE = 0x19,
  EIATTR_QUERY_NUMATTRIB = 0x1a,
  EIATTR_MAXREG_COUNT = 0x1b,
  EIATTR_EXIT_INSTR_OFFSETS = 0x1c,
  EIATTR_S2RCTAID_INSTR_OFFSETS = 0x1d,
  EIATTR_CRS_STACK_SIZE = 0x1e,
  EIATTR_NEED_CNP_WRAPPER = 0x1f,
  EIATTR_NEED_CNP_PATCH = 0x20,
  EIATTR_EXPLICIT_CACHING = 0x21,
  EIATTR_ISTYPEP_USED = 0x22,
  EIATTR_MAX_STACK_SIZE = 0x23,
  EIATTR_SUQ_USED = 0x24,
  EIATTR_LD_CACHEMOD_INSTR_OFFSETS = 0x25,
  EIATTR_LOAD_CACHE_REQUEST = 0x26,
  EIATTR_ATOM_SYS_INSTR_OFFSETS = 0x27,
  EIATTR_COOP_GROUP_INSTR_OFFSETS = 0x28,
  EIATTR_COOP_GROUP_MASK_REGIDS = 0x29,
  EIATTR_SW1850030_WAR = 0x2a,
  EIATTR_WMMA_USED = 0x2b,
  EIATTR_HAS_PRE_V10_OBJECT = 0x2c,
  EIATTR_ATOMF16_EMUL_INSTR_OFFSETS = 0x2d,
  EIATTR_ATOM16_EMUL_INSTR_REG_MAP = 0x2e,
  EIATTR_REGCOUNT = 0x2f,
  EIATTR_SW2393858_WAR = 0x30,
  EIATTR_INT_WARP_WIDE_INSTR_OFFSETS = 0x31,
  EIATTR_SHARED_SCRATCH = 0x32,
  EIATTR_STATISTICS = 0x33,
  EIATTR_INDIRECT_BRANCH_TARGETS = 0x34,
  EIATTR_SW2861232_WAR = 0x35,
  EIATTR_SW_WAR = 0x36,
  EIATTR_CUDA_API_VERSION = 0x37,
  EIATTR_NUM_MBARRIERS = 0x38,
  EIATTR_MBARRIER_INSTR_OFFSETS = 0x39,
  EIATTR_COROUTINE_RESUME_OFFSETS = 0x3a,
  EIATTR_SAM_REGION_STACK_SIZE = 0x3b,
  EIATTR_PER_REG_TARGET_PERF_STATS = 0x3c,
  EIATTR_CTA_PER_CLUSTER = 0x3d,
  EIATTR_EXPLICIT_CLUSTER = 0x3e,
  EIATTR_MAX_CLUSTER_RANK = 0x3f,
  EIATTR_INSTR_REG_MAP = 0x40,
  EIATTR_RESERVED_SMEM_USED = 0x41,
  EIATTR_RESERVED_SMEM_0_SIZE = 0x42,
  EIATTR_UCODE_SECTION_DATA = 0x43,
  EIATTR_UNUSED_LOAD_BYTE_OFFSET = 0x44,
  EIATTR_KPARAM_INFO_V2 = 0x45,
  EIATTR_SYSCALL_OFFSETS = 0x46,
  EIATTR_SW_WAR_MEMBAR_SYS_INSTR_OFFSETS = 0x47,
  EIATTR_GRAPHICS_GLOBAL_CBANK = 0x48,
  EIATTR_SHADER_TYPE = 0x49,
  EIATTR_VRC_CTA_INIT_COUNT = 0x4a,
  EIATTR_TOOLS_PATCH_FUNC = 0x4b,
  EIATTR_NUM_BARRIERS = 0x4c,
  EIATTR_TEXMODE_INDEPENDENT = 0x4d,
  EIATTR_PERF_STATISTICS = 0x4e,
  EIATTR_AT_ENTRY_FRAGEMENTS = 0x4f,
  EIATTR_SPARSE_MMA_MASK = 0x50,
  EIATTR_TCGEN05_1CTA_USED = 0x51,
  EIATTR_TCGEN05_2CTA_USED = 0x52,
  EIATTR_GEN_ERRBAR_AT_EXIT = 0x53,
  EIATTR_REG_RECONFIG = 0x54,
  EIATTR_ANNOTATIONS = 0x55,
  EIATTR_UNKNOWN = 0x56,
  EIATTR_STACK_CANARY_TRAP_OFFSETS = 0x57,
  EIATTR_STUB_FUNCTION_KIND = 0x58,
  EIATTR_LOCAL_CTA_ASYNC_STORE_OFFSETS = 0x59,
  EIATTR_MERCURY_FINALIZER_OPTIONS = 0x5a,
  EIATTR_BLOCKS_ARE_CLUSTERS = 0x5b,
  EIATTR_SANITIZE = 0x5c,
  EIATTR_SYSCALLS_FALLBACK = 0x5d,
  EIATTR_CUDA_REQ = 0x5e,
  EIATTR_MERCURY_ISA_VERSION = 0x5f,
};

struct EiRecord {
  u8 format = 0;
  u8 attr = 0;
  // HVAL value; BVAL value (the high byte is the pad byte, always 0 in real
  // files; kept so records round-trip exactly); NVAL: the two (zero) bytes
  // after the code; SVAL: the size, equal to payload.size().
  u16 value = 0;
  std::span<const u8> payload; // SVAL bytes

  u32 payload_u32(size_t index) const { return read_le<u32>(payload.data() + 4 * index); }
  size_t encoded_size() const { return 4 + (format == EIFMT_SVAL ? payload.size() : 0); }
};

// "EIATTR_REGCOUNT", or "EIATTR_0x61" for codes nvlink 13.0 does not know.
std::string_view eiattr_name(u8 attr);

// Decodes packed records; malformed data throws InputError.
std::vector<EiRecord> parse_eiattrs(std::span<const u8> bytes);
// Encodes records back to back. Payload bytes are copied.
std::span<const u8> encode_eiattrs(Arena &arena, const std::vector<EiRecord> &records);

// Names of `.nv.compat` record codes ("EICOMPAT_ATTR_ISA_CLASS"), or
// "EICOMPAT_0x0b" where unknown. The code-to-name mapping follows the order
// of the names in the nvlink binary and is unverified beyond 0x07 and 0x09.
std::string_view eicompat_name(u8 attr);

// Returns the display name of symbol `index` (used by format_eiattr_value).
using SymbolNamer = std::function<std::string(u32 index)>;

// Renders a record's value in a readable, decoded form for dumps, e.g.
// REGCOUNT "sym 22 (_Z5kmainPii) regs 24", EXTERNS "syms 5 (vprintf), 7 (f)",
// EXIT_INSTR_OFFSETS "0x70 0x1a0". Unknown or malformed payloads are shown
// as hex words. Never throws on any payload.
std::string format_eiattr_value(const EiRecord &rec, const SymbolNamer &sym_name);
// The same for a `.nv.compat` record.
std::string format_eicompat_value(const EiRecord &rec);

} // namespace dlink
