// The link context: every piece of state one link needs, passed by
// reference to each stage (no globals).
//
// The output is modelled the way nvlink builds it: sections and symbols are
// *created* in a well-defined order while inputs are merged, and that
// creation order decides most of the output's bytes — the order of section
// headers within each group, the order of symbols, and the contents of
// .shstrtab and .strtab, which record every name ever created (nvlink never
// compacts its string tables, so even sections and symbols that are later
// dropped leave their names behind). OutputModel keeps those events.
#pragma once

#include "dlink/arena.h"
#include "dlink/diag.h"
#include "dlink/eiattr.h"
#include "dlink/elf.h"
#include "dlink/options.h"
#include "dlink/name_hash.h"
#include "dlink/parallel.h"
#include "dlink/small_bytes.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace dlink {

struct OutputSection;
struct OutputSymbol;
struct ExplainState; // src/explain/explain.h
class OutputHooks;   // src/output/target_hooks.h

// Where an input came from and why it takes part in the link (recorded by
// read_inputs for --map and --why-extract; no stage reads it).
struct InputOrigin {
  std::string file;   // the file given (an archive for members)
  std::string member; // archive member, or empty
  std::string how;    // "cubin", "fatbin entry sm_90", "PTX compiled by ptxas", ...
  std::string reason; // why it was loaded
  // cudadevrt members: the undefined symbol pending when it was read and
  // the input that referenced it.
  std::string pending_symbol;
  std::string pending_referrer;
  bool every_member = false; // a user archive: nvlink loads every member
};

// What an input or output section is, by its name and type
// (classify_section).
enum class SectionKind {
  Other,
  Text,           // .text.<f>
  FunctionInfo,   // .nv.info.<f>
  ModuleInfo,     // .nv.info
  Compat,         // .nv.compat
  Constant,       // .nv.constantN, .nv.constant0.<k>
  GlobalInit,     // .nv.global.init
  Global,         // .nv.global
  Shared,         // .nv.shared.<k>
  DebugShared,    // .nv_debug.shared (marks use of dynamic shared memory)
  SharedReserved, // .nv.shared.reserved.<n> (sm_110 workaround variables)
  Reloc,          // .rel / .rela
  Callgraph,
  Prototype,
  RelAction,
  Note,
  Debug,          // .debug_*, .nv_debug_*
  Mercury,        // .nv.capmerc.* / .nv.merc.* (sm_100+)
  StringTable,
  SymbolTable,
};

// One relocatable cubin taking part in the link.
struct InputObject {
  std::string name;          // as nvlink names it in messages ("lib.a:member.o" for members)
  std::span<const u8> bytes; // arena-owned
  ElfFile elf;
  std::vector<ElfSymbol> symbols;
  u32 index = 0; // position in link order
  bool prelinked = false; // written by a relocatable link (-r; check_prelinked_inputs)
  // Whether its tkinfo note records a command line with -r, when the
  // validation computed it (in parallel; check_prelinked_inputs then sets
  // `prelinked`).
  std::optional<bool> tkinfo_says_relocatable;
  InputOrigin origin;
  // The result of validate_cubin, when read_inputs already computed it (in
  // parallel, for every input): the merge then reports it in link order.
  enum class Validation : u8 { Pending, Valid, Invalid };
  Validation validation = Validation::Pending;
  std::string validation_error;
  // Every section's relocations and EIATTR records, parsed once by the
  // validation (in parallel for all inputs) and read again by the merge:
  // validate.h section_relocs() / section_records().
  struct ParsedSections {
    std::vector<std::vector<ElfReloc>> relocs;
    std::vector<std::vector<EiRecord>> records;
    std::vector<u8> relocs_done, records_done;
  } parsed;

  // Where merging put this input's symbols and sections (kept for the
  // capsule-Mercury stage, which merges the twin sections afterwards).
  std::vector<OutputSymbol *> sym_map;
  std::vector<OutputSection *> sec_map;
  std::vector<u64> sec_off;
  std::vector<bool> discarded;
  // Weak function copies whose debug records nvlink drops.
  std::vector<bool> dropped_debug_copies;
  // Per input section: byte ranges of weak variables whose definition lost.
  std::map<u32, std::vector<std::pair<u64, u64>>> dropped_ranges;
  // Per debug section the merge rewrote (sm_100+ .debug_frame and line
  // tables): the input byte ranges kept, by input offset, and where each
  // went (surviving_offset, merge.h).
  struct KeptRange {
    u64 start, end, new_start;
  };
  std::map<u32, std::vector<KeptRange>> kept_ranges;
  // What the merge asks of this input alone, prepared for every input at
  // once before it (prepare_merge, merge.cpp; the function tables are
  // dropped after the merge).
  struct MergePrep {
    std::vector<std::string_view> local_function_sections; // ".text.<f>" of local functions (sorted)
    std::vector<std::string_view> repeated_section_names;  // held by several sections (-r outputs; sorted)
    NameMap<u32> function_definitions; // a defined function's name: its first symbol
    // Per section: the defined function its name is for (".text.<f>",
    // ".nv.info.<f>", ".nv.constant0.<f>", ".nv.constant2.<f>",
    // ".nv.shared.<f>"), 0 if none (InputMerger::is_dead_section).
    std::vector<u32> named_function;
    // Per section: its kind (classify_section).
    std::vector<SectionKind> kinds;
    // Per symbol and per section: NameHash of its name (the merge's lookups
    // by name).
    std::vector<size_t> symbol_hashes, section_hashes;
    static bool has(const std::vector<std::string_view> &names, std::string_view name) {
      return !names.empty() && std::binary_search(names.begin(), names.end(), name);
    }
  } merge_prep;
};

// Functions the CUDA driver provides: references to them stay undefined in
// the image and never pull library members. nvlink accepts exactly these
// names undefined (probed over every function name of the CUDA headers and
// libcudadevrt, sm_75/sm_90/sm_100; docs/notes/inputs.md): the printf,
// malloc and assert entry points, every `__cuda_syscall*` name, the CDP1
// `cnp*` calls libcudadevrt makes and the device-side graph API.
inline bool is_driver_function(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "vprintf", "malloc", "free", "__assertfail",
      // CDP1 entry points (libcudadevrt's cudaXxx wrappers call them).
      "cnpCtxSynchronize", "cnpDeviceGetAttribute", "cnpEventCreate", "cnpEventDestroy",
      "cnpEventRecord", "cnpFuncGetAttribute", "cnpGetCacheConfig", "cnpGetDevice",
      "cnpGetDeviceCount", "cnpGetLastError", "cnpGetLimit", "cnpGetParameterBuffer",
      "cnpGetParameterBufferV2", "cnpGetSharedMemConfig", "cnpLaunchDevice",
      "cnpLaunchDeviceV2", "cnpSetLastError", "cnpStreamCreate", "cnpStreamDestroy",
      "cnpStreamWaitEvent",
      // Device graph API (cuda_device_runtime_api.h; not in libcudadevrt).
      "cudaGraphKernelNodeSetEnabled", "cudaGraphKernelNodeSetGridDim",
      "cudaGraphKernelNodeSetParam", "cudaGraphKernelNodeUpdatesApply", "cudaGraphLaunch",
      "cudaGraphSetConditional"};
  if (name.starts_with("__cuda_syscall"))
    return true;
  for (std::string_view n : kNames)
    if (n == name)
      return true;
  return false;
}

struct OutputSymbol {
  std::string_view name;
  u8 bind = STB_LOCAL;
  u8 type = STT_NOTYPE;
  u8 other = 0;
  OutputSection *section = nullptr; // nullptr: undefined
  u64 value = 0;
  u64 size = 0;
  bool is_section_symbol = false;
  // Weak symbols first created by a weak definition live in nvlink's local
  // symbol array: they are listed among the locals and their names go to
  // .strtab at creation.
  bool in_local_array = false;
  // An `extern __shared__` array (dynamic shared memory): never an output
  // symbol; its address is the end of the static shared memory of the
  // kernel using it.
  bool extern_shared = false;
  // -g: the `extern __shared__` array is an output symbol of .nv_debug.shared
  // (debug_link.h).
  bool debug_shared_symbol = false;
  // A dynamic `extern __shared__` array that a later input defines (merge): nvlink keeps it dynamic but resolves its references to all ones.
  bool dynamic_then_defined = false;
  // A namespace-scope `__shared__` variable: laid out once for the whole
  // program (layout), never an output symbol.
  bool namespace_shared = false;
  // Referred to by a function dead-code elimination removed (the shared
  // layout still counts such references).
  bool referenced_by_dead_code = false;
  // Its entry in the target family's side table (src/mercury/state.h), 0:
  // none. Generic stages never read it.
  u32 family_slot = 0;
  // A kernel kept by -kernels-used only because its address is taken
  // (merge.cpp is_non_root_kernel): no MIN_STACK_SIZE record.
  bool non_root_entry = false;
  // A function dead-code elimination would remove, kept because -g or
  // --preserve-relocs removes nothing (dead_code.h mark_unreachable_functions).
  bool unreachable = false;
  // Such a kernel (one kernel pruning leaves out, --preserve-relocs): a
  // device function in the call graph.
  bool pruned_entry = false;
  // A LOCAL OBJECT, STV_INTERNAL, undefined input symbol: ptxas's
  // `.nv.ptx.const0.size` (a device function's `isspacep.global`/`__isGlobal`
  // needs the kernel parameter window's size, unknown outside a kernel).
  // nvlink resolves relocations against it with S = all ones and drops them;
  // the symbol does not reach the output (measured whatever the name;
  // docs/notes/relocations.md). Other undefined locals are not resolved so.
  bool internal_undefined_object = false;
  // -r: a kernel's `externsharedinstance`, the undefined symbol its
  // references to dynamic shared arrays are kept against (relocatable.h).
  bool relocatable_dynamic_instance = false;
  // -r of a -r output: the `externsharedinstance` its kernels refer to
  // (undefined, WEAK, STV_INTERNAL, value the first stage's window), which
  // this link defines in .nv_debug.shared (relocatable.h).
  bool prelinked_window = false;
  // A `.common` variable (st_shndx SHN_COMMON): `common` while every
  // definition seen so far is common (the largest size wins);
  // `common_pending` until its space is allocated in .nv.global after the
  // merge (merge.cpp allocate_common_symbols), `common_align` being the
  // alignment of its first occurrence.
  bool common = false;
  bool common_pending = false;
  u64 common_align = 0;
  bool removed = false;
  const InputObject *defined_in = nullptr;
  const InputObject *first_referenced_in = nullptr;
  u32 index = 0; // final .symtab index
  u32 create_seq = 0;
  // (input index, symbol index) of the definition (a shared variable never
  // defined: of where it was first seen)
  u64 def_order = 0;

  bool defined() const { return section != nullptr; }
  bool is_entry() const { return (other & STO_CUDA_ENTRY) != 0; }
};

struct OutputReloc {
  u64 offset = 0;
  OutputSymbol *sym = nullptr; // nullptr: symbol 0
  u32 type = 0;
  i64 addend = 0;
  // Offset of the input's part of a merged section, for relocations against
  // an input section symbol (the output symbol is the merged section's).
  u64 bias = 0;
  // Its field runs past the end of its input section (a 64-bit address in a
  // 32-bit PTX initialiser such as `.global .u32 p = x`): nvlink keeps such a
  // relocation for the loader; dlink refuses to apply one (relocate).
  bool overruns_input = false;
  // Merge order (input, section, entry): --preserve-relocs lists the
  // resolved relocations of one target in the reverse of this order.
  u32 seq = 0;
};

// An owned EIATTR record (payload copied, symbol fields still pointing at
// output symbols until serialization).
struct InfoRecord {
  u8 format = 0;
  u8 attr = 0;
  u16 value = 0;
  SmallBytes payload;
  // For records whose payload starts with a symbol index (REGCOUNT,
  // FRAME_SIZE, PARAM_CBANK, ...): the symbol it names.
  OutputSymbol *sym = nullptr;
  // EXTERNS: the symbols listed.
  std::vector<OutputSymbol *> syms;
  bool moved_to_end = false; // EXTERNS re-created at the end of its section
  bool added = false;        // EXTERNS the link created for a kernel that had none
  bool bank_tail = false;     // sm_100+: parameter-bank record re-added after the merge
};


struct OutputSection {
  std::string_view name;
  SectionKind kind = SectionKind::Other;
  u32 type = SHT_PROGBITS;
  u64 flags = 0;
  u64 align = 1;
  u64 entsize = 0;
  u32 create_seq = 0;

  std::vector<u8> data; // bytes for sections stored in the file
  u64 size = 0;         // size (== data.size() unless NOBITS-like)

  OutputSymbol *symbol = nullptr; // section symbol
  OutputSymbol *func = nullptr;   // owning function (.text/.nv.info.f/.nv.constant0.k/.nv.shared.k)
  OutputSection *target = nullptr; // for relocation sections
  bool rela = false;
  std::vector<OutputReloc> relocs; // relocation sections, in output order
  // --preserve-relocs: a target's .nv.resolvedrela<target> section, and the
  // mark on that section (its relocations are the ones the link resolved).
  OutputSection *resolved = nullptr;
  bool resolved_rela = false;
  std::vector<InfoRecord> records; // .nv.info sections, in output order
  std::vector<InfoRecord> tail_records; // appended after the merge (sm_100+)

  // Shared variables placed in this .nv.shared.<k> section, in merge order.
  // In relocatable cubins their st_value is the alignment, not an offset.
  std::vector<OutputSymbol *> shared_vars;
  // A device function's own constant bank (sm_75-89 ".nv.constant2.<f>"):
  // not an output section; its bytes are copied into the banks of the
  // kernels that reach the function, at offset `base` (layout).
  bool detached = false;
  // A debug section keeps a section symbol only where an input's section
  // symbol named it (ptxas writes none for an empty .debug_frame).
  bool input_section_symbol = false;
  std::string_view bank_function;
  u64 base = 0;
  bool lost_copy = false; // the bank of a weak function copy that is not kept
  // The bank of a weak copy merged before the kept one (a later copy with
  // fewer registers won): nvlink drops it with its function (§6).
  bool superseded_copy = false;
  // ... one that never held the function either (it did not beat the copy
  // held when it was merged).
  bool passed_over = false;
  // A local function's bank belongs to that input's copy only (local
  // functions of several inputs may share a name).
  const InputObject *bank_input = nullptr;
  u32 bank_symbol = 0;
  bool bank_local = false;
  // .nv.shared.<k> of a kernel that uses dynamic shared memory.
  bool uses_dynamic_shared = false;
  bool uses_namespace_shared = false;
  u64 static_shared_size = 0;

  // High byte of a .text section's sh_info (sm_75-89: register count).
  u32 info_high = 0;

  // Created after the merge (placed after all other sections).
  bool late = false;
  // Its bytes are stored in the file although its type holds none (a
  // copy of the reserved shared window, sm_100+).
  bool stored_in_file = false;
  // Its entry in the target family's side table (src/mercury/state.h), 0:
  // none. Generic stages never read it.
  u32 family_slot = 0;
  std::string_view renamed_from;   // the name before an in-place rename

  bool removed = false;
  u32 index = 0; // final section index

  bool has_file_data() const {
    return type != SHT_NOBITS && type != SHT_CUDA_SHARED && type != SHT_CUDA_GLOBAL &&
           (type != SHT_CUDA_SHARED_RESERVED || stored_in_file);
  }
};

// Base of the state a target family's own stage keeps beside the output
// model (OutputModel::arch_state).
struct ArchState {
  virtual ~ArchState() = default;
};

// The output ELF under construction.
struct OutputModel {
  std::vector<OutputSection *> sections; // creation order
  u32 reloc_seq = 0; // next OutputReloc::seq
  // `.common` variables in the order they were first seen as common.
  std::vector<OutputSymbol *> common_symbols;
  std::vector<OutputSymbol *> locals;    // section and local symbols, creation order
  std::vector<OutputSymbol *> globals;   // creation order
  FlatNameMap<OutputSection *> section_by_name;
  // The first relocation section (.rel or .rela, not a resolved list) of
  // each target, for targets whose relocation sections share a name with
  // another's (local functions of one name in several inputs): keyed by the
  // target's address with the rela flag in bit 0, over sections[0,
  // reloc_index_end) (output_model.cpp, reloc_section_for).
  std::unordered_map<uintptr_t, OutputSection *> reloc_by_target;
  size_t reloc_index_end = 0;
  FlatNameMap<OutputSymbol *> global_by_name;
  NameMap<OutputSymbol *> extern_shared_by_name;
  // --preserve-relocs without debug information: each dynamic array, in
  // the order first seen, with the last global symbol of the input that
  // first saw it (its symbol, if it gets one, follows; debug_link.h).
  std::vector<std::pair<OutputSymbol *, const OutputSymbol *>> preserved_dynamic_arrays;
  // Per function: where dynamic shared memory starts for the kernels that
  // reach it (layout).
  std::unordered_map<const OutputSymbol *, u64> dynamic_shared_offset;
  // -r: each kernel's `externsharedinstance` (define_relocatable_dynamic_shared).
  std::unordered_map<const OutputSymbol *, OutputSymbol *> dynamic_shared_instance;
  std::vector<OutputSection *> function_banks; // detached, merge order
  std::set<std::string_view> banked_functions;  // names of the kept copies' banks
  // st_value of the null symbol: where the last placed bank of a discarded
  // weak function copy went (its symbols resolve to the null symbol).
  u64 null_symbol_value = 0;
  // Kernel pruning only: where each input's .nv.constant3 bytes go in the
  // packed bank (merge.h, pack_constant_bank).
  struct ConstantChunk {
    u64 offset = 0;  // where symbols and relocations place it
    u64 size = 0;
    u64 packed = 0;  // where its bytes go
    bool own_bytes = true; // false: an earlier identical chunk's bytes serve
    std::span<const u8> input;
  };
  struct {
    bool enabled = false;
    OutputSection *section = nullptr;
    u64 size = 0; // packed size
    bool shared = false; // some chunk reuses another's bytes
    bool sets_null_symbol = false; // null_symbol_value is a chunk's place
    std::vector<ConstantChunk> chunks;
  } constant_bank;

  // Names in the order nvlink adds them to its string tables.
  struct ShstrtabEntry {
    std::string_view name;
    u32 pad = 0; // NUL bytes left by an in-place rename
    // Capsule-Mercury sections: the name is stored again even when an
    // identical one is already there (local functions of several inputs).
    const OutputSection *own = nullptr;
  };
  std::vector<ShstrtabEntry> shstrtab_names;
  // Section names and local symbol names, in creation order (global
  // symbol names follow at the end of .strtab).
  std::vector<std::string_view> strtab_names;
  // After nvlink fixes its global symbols (once .nv.callgraph/.nv.prototype
  // exist), new local symbols and names go after the globals.
  bool closed = false;
  // The number of .shstrtab entries when it closed (the names after it are
  // those of sections created after the merge).
  size_t shstrtab_closed_at = 0;
  std::vector<OutputSymbol *> late_locals;
  std::vector<std::string_view> strtab_late_names;
  // sm_100+: zero bytes nvlink leaves after .strtab, one share per section
  // renamed in place (see rename_section).
  u64 strtab_slack = 0;
  // sm_100+: kernel parameter banks, created after the globals are fixed.
  std::vector<OutputSection *> deferred_sections;
  NameMap<OutputSection *> deferred_by_name;
  // sm_100+ bound texture/sampler/surface references (texture_slots.h): a
  // kernel that gets header-index slots has its parameter bank registered
  // early as ".nv.constant.entry_image_header_indices.<k>" (renamed back to
  // ".nv.constant0.<k>" when the link is done), with its relocations.
  struct HeaderIndexBank {
    OutputSymbol *kernel = nullptr;
    OutputSection *bank = nullptr;
    OutputSection *rela = nullptr;
    std::string_view final_name; // ".nv.constant0.<k>"
  };
  std::vector<HeaderIndexBank> header_index_banks;
  // sm_100+ optimizer constants (ptxas const_opt values of device
  // functions, e.g. switch jump tables): a kernel's bank is created at layout
  // as ".nv.constant.optimizer.<k>" with an empty RELA section, both renamed
  // in finish_sections to ".nv.constant2.<k>" / ".rela.nv.constant2.<k>"
  // (docs/notes/semantics-findings.md §16). Banks and relas in creation order.
  struct OptimizerBank {
    OutputSymbol *kernel = nullptr;
    OutputSection *bank = nullptr;
    std::string_view final_name; // ".nv.constant2.<k>"
  };
  std::vector<OptimizerBank> optimizer_banks;
  std::vector<OutputSection *> optimizer_relas;
  // Device functions' own banks (detached, any arch) in the order layout
  // placed them, each with the kernel banks it was copied into.
  std::vector<std::pair<OutputSection *, std::vector<OutputSection *>>> placed_function_banks;
  // -r: where each input's copy of a weak function's own bank went in the
  // merged `.nv.constant2.<f>` (input, offset); the copies that held the
  // function in turn share the first one's place.
  struct BankPart {
    enum class Role : u8 { Kept, Held, Appended, PassedOver };
    const InputObject *input = nullptr;
    u64 offset = 0;
    // Held: held the function before the kept copy; PassedOver: came
    // before it and never held it (sm_100+: no bytes, relocations only).
    Role role = Role::Appended;
  };
  // -r: the entries of the unified functions' and variables' tables
  // (.nv.uft.entry/.nv.udt.entry, 32 bytes each), written with their
  // symbols' output indices and values (relocatable.h).
  struct UnifiedEntry {
    OutputSection *section = nullptr;
    u64 offset = 0;
    OutputSymbol *symbol = nullptr;
  };
  std::vector<UnifiedEntry> unified_entries;
  struct RelocatableBank {
    OutputSection *section = nullptr;
    std::string_view function;
    std::vector<BankPart> parts; // link order
  };
  std::vector<RelocatableBank> relocatable_banks;
  RelocatableBank *relocatable_bank(const OutputSection *sec) {
    for (RelocatableBank &b : relocatable_banks)
      if (b.section == sec)
        return &b;
    return nullptr;
  }
  // Each reference's slot offset in every kernel bank, and where the slots
  // start (the Mercury copies hold only the slots: offset - base).
  std::unordered_map<const OutputSymbol *, u64> texture_slot;
  u64 texture_slot_base = 0;
  // A removed function had a code relocation against a bound texture
  // reference (of a sampler or surface: the second flag). With a single
  // kernel, nvlink still gives that kernel slots.
  bool dead_code_uses_references = false;
  bool dead_code_uses_sampler_references = false;
  // State a target family's own stage keeps for the link (sm_100+:
  // src/mercury/state.h); generic stages never look inside.
  std::unique_ptr<ArchState> arch_state;
  // Names of weak functions defined by the inputs merged so far.
  FlatNameMap<bool> weak_function_names;
  // Weak function name -> index of the input whose definition is kept.
  FlatNameMap<u32> weak_winner;
  // Weak function name -> the inputs that held the kept definition in turn
  // while merging in link order: the first definer, then each input whose
  // copy has fewer registers than the one held so far (the last is
  // weak_winner). sm_100+ .debug_frame shows every holder.
  std::map<std::string_view, std::vector<u32>> weak_holders;
  // Whether input `index`'s copy of weak function `fn` never held it and
  // comes before the kept copy (-r: its bank leaves no bytes; relocatable.h).
  bool passed_over_before_kept(std::string_view fn, u32 index) const {
    auto it = weak_holders.find(fn);
    return it != weak_holders.end() && it->second.size() > 1 && index < it->second.back() &&
           std::find(it->second.begin(), it->second.end(), index) == it->second.end();
  }
  std::vector<std::string_view> prototype_strings;

  // .nv.callgraph blocks.
  std::vector<std::pair<OutputSymbol *, OutputSymbol *>> call_edges;
  // Call edges whose callee dead-code elimination removed (a kept
  // address-taken function's callees): edge index -> (input, callee symbol
  // index). Only -dump-callgraph shows them.
  std::unordered_map<size_t, std::pair<u32, u32>> dead_call_edges;
  std::vector<std::pair<OutputSymbol *, std::string_view>> address_taken;  // block -2
  std::vector<std::pair<OutputSymbol *, std::string_view>> indirect_calls; // block -3
  std::vector<std::pair<OutputSymbol *, OutputSymbol *>> indirect_targets; // block -4
  // .nv.prototype: function -> signature string.
  std::vector<std::pair<OutputSymbol *, std::string_view>> prototypes;
  // The first .nv.prototype string seen for each symbol (the prototype check).
  std::unordered_map<const OutputSymbol *, std::string_view> first_prototype;
  // Errors found during layout that nvlink reports after the .nv.info pass
  // (its stack-size warnings come first).
  std::vector<std::string> late_errors;
  // Undefined references (resolve_undefined): nvlink reports them after
  // the .nv.info pass and its messages, before -dump-callgraph and -v.
  std::vector<std::string> undefined_errors;
  // Every strong global function definition seen so far, dead code included
  // (a duplicate definition is an error even when nothing calls it): the
  // defining input and whether that copy was live.
  FlatNameMap<std::pair<const InputObject *, bool>> strong_function_defs; // (names of the inputs)
  // Namespace-scope shared variables as nvlink's symbol checks see them
  // (merge.cpp check_shared_declaration): the input that first mentioned
  // the variable, the size recorded, whether a definition was seen.
  struct SharedDeclaration {
    const InputObject *first = nullptr;
    u64 size = 0;
    bool defined = false;
    bool weak = false; // defined, and that definition WEAK
  };
  OwnedNameMap<SharedDeclaration> shared_declarations;
  // Every global variable as first mentioned (merge.cpp check_variable_kind):
  // the input, memory-space bits, managed attribute, kind, size, and whether
  // a definition was seen.
  struct VariableDeclaration {
    const InputObject *first = nullptr;
    u8 space = 0;
    bool managed = false;
    bool shared = false;
    u64 size = 0;
    bool defined = false;
  };
  OwnedNameMap<VariableDeclaration> variable_declarations;
  // Global function name -> whether its first mention was a kernel.
  FlatNameMap<bool> function_is_kernel; // (names of the inputs)
  // Membership of prototypes / address_taken (their first element), for O(1)
  // dedup (prototypes: the null symbol only; the others are first_prototype's).
  std::unordered_set<const OutputSymbol *> prototype_syms, address_taken_syms;

  // Notes of the inputs (ptxas tkinfo notes, copied), in link order.
  std::vector<std::span<const u8>> input_tkinfo_notes;
  // The architecture .note.nv.cuinfo names (output/synthetic.h
  // lower_cuinfo_sm; set by the merge).
  u32 cuinfo_sm = 0;
  // .nv.compat records of the first input that had one.
  std::vector<EiRecord> compat;
  bool have_compat = false;
  // An input is a relocatable link's output (relocatable.h
  // check_prelinked_inputs).
  bool prelinked_input = false;
  u64 compat_0b = 0; // record 0x0b, combined over inputs with code
  bool compat_0b_seen = false;

  u32 next_seq = 0;
};

// --threads N / -j N as a count; 0 (all cores) when absent or not a
// positive number (check_command_line rejects the latter).
inline unsigned requested_threads(const Options &o) {
  if (o.threads.empty() || o.threads[0] == '-')
    return 0;
  unsigned long n = std::strtoul(o.threads.c_str(), nullptr, 10);
  return n > 4096 ? 4096 : static_cast<unsigned>(n);
}

struct Context {
  explicit Context(const Options &o, Diagnostics &d) : opts(o), diag(d), par(requested_threads(o)) {}
  const Options &opts;
  Diagnostics &diag;
  // Threads of this link (dlink/parallel.h: compute in parallel, commit in order).
  Parallelism par;
  Arena arena;
  Arch arch;
  std::vector<InputObject *> inputs;
  // The input files mapped read-only (input_prefetch.h): clean file pages,
  // which release_input_pages drops from the resident set between stages.
  std::vector<std::span<const u8>> mapped_inputs;
  // Per input, per symbol index: false for functions dead-code elimination
  // removed (see dead_code.h).
  std::vector<std::vector<bool>> live_functions;
  // -g and --preserve-relocs remove no function: the same flags, for the
  // functions dead-code elimination would remove (mark_unreachable_functions).
  std::vector<std::vector<bool>> reachable_functions;
  // Set by read_inputs (input_files.h):
  // --register-link-binaries ids, link order (registration.h).
  std::vector<std::string> link_binary_ids;
  // Host-reference kernel pruning (dead_code.h): whether every object read
  // was a host object carrying .nvHR lists, whether one of them lists
  // kernels (HostRefs::lists_kernels), and the kernel patterns (.nvHRKE,
  // .nvHRKI).
  bool all_inputs_have_host_refs = true;
  bool host_refs_list_kernels = false;
  std::vector<std::string_view> host_kernel_patterns;
  // The __constant__ variables host code uses (.nvHRCE/.nvHRCI): kept when
  // an oversized constant bank drops the others (relayout_constant_bank).
  std::vector<std::string_view> host_constant_patterns;
  // Set by find_live_functions (dead_code.h): how many kernels the kernel
  // filter keeps (every kernel without pruning).
  size_t kept_kernel_count = 0;
  // -lto / -dlto (lto/lto.h): the inputs carrying LTO IR, how many linked
  // inputs do not, and whether a cudadevrt library was read.
  struct LtoInputs {
    std::vector<std::string> objects;
    size_t other_inputs = 0;
    bool cudadevrt_seen = false;
  } lto;
  OutputModel out;
  ElfFile output_elf; // the output, its section bytes still in the sections
  // --map, --why-extract, --trace-symbol, --resource-report (src/explain):
  // null unless one of them was given. Never read by a stage.
  std::shared_ptr<ExplainState> explain;
  // What the target family adds to writing the output (output/target_hooks.h;
  // chosen by the driver, null: nothing).
  const OutputHooks *output_hooks = nullptr;
};

} // namespace dlink
