// The merge stage's per-input worker (merge.h): one input merged into
// ctx.out. Its parts live in src/link/: symbols.cpp (passes 1 and 2),
// sections.cpp (section mapping, passes 3 and 4), constant_banks.cpp,
// records.cpp (.nv.compat, .nv.info, relocations), callgraph.cpp and
// weak_debug_records.cpp (the weak copies' debug records); the sm_100+
// debug edits are src/mercury/merge_debug.cpp.
#pragma once

#include "dead_code.h"
#include "link_context.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace dlink {

// Work of the merge that depends only on one input and on what merging it
// decided (its symbol and section maps, kept ranges, dropped copies): the
// conversion of its relocations and EIATTR records into output ones. The
// merge queues it in merge order (reserving the relocations' sequence
// numbers); merge_inputs runs the queue when every input is merged, each
// output section's jobs in queue order and the sections in parallel, so
// the output does not depend on the thread count.
struct DeferredConversion {
  enum class Kind : u8 { Relocs, FunctionRecords, ModuleRecords };
  Kind kind = Kind::Relocs;
  OutputSection *out = nullptr;
  const InputObject *obj = nullptr;
  u32 section = 0;                               // the input section
  const std::vector<ElfReloc> *relocs = nullptr; // Relocs (parsed by the validation)
  const std::vector<EiRecord> *records = nullptr; // *Records
  u32 seq = 0;           // Relocs: the first of the sequence numbers reserved
  bool bank_tail = false; // FunctionRecords: sm_100+ parameter-bank records go last
};

// The bytes of an input's code section, placed at `offset` of `out` (whose
// size already counts them): copied after the merge, in parallel. Nothing
// reads code bytes during the merge.
struct DeferredCopy {
  OutputSection *out = nullptr;
  u64 offset = 0;
  std::span<const u8> bytes;
};

struct MergeBacklog {
  std::vector<DeferredConversion> jobs;
  std::vector<DeferredCopy> copies;
};

// Runs the queue (records.cpp): the code bytes first, then the jobs of each
// output section in queue order, appending to it; the sections at once.
void run_merge_backlog(const Context &ctx, MergeBacklog &backlog);

// Where input offset `offset` of section `i` ended up (relative to the
// input's part of the merged section), if it survived.
std::optional<u64> surviving_offset(const std::map<u32, std::vector<InputObject::KeptRange>> &kept, u32 i,
                                    u64 offset);

class InputMerger {
public:
  InputMerger(Context &ctx, InputObject &obj, MergeBacklog &backlog)
      : ctx_(ctx), obj_(obj), backlog_(backlog), sec_map_(obj.elf.sections.size(), nullptr),
        sec_off_(obj.elf.sections.size(), 0), sym_map_(obj.symbols.size(), nullptr),
        discarded_(obj.symbols.size(), false) {}

  void run();

private:
  const ElfSection &in_section(u32 i) const { return obj_.elf.sections.at(i); }
  u32 section_index(const ElfSection &in) const { return static_cast<u32>(&in - obj_.elf.sections.data()); }
  // classify_section of input section `i` (found before the merge).
  SectionKind kind_of(u32 i) const { return obj_.merge_prep.kinds.at(i); }

  // Output section for input section `i`, created and filled on first use.
  OutputSection *map_section(u32 i);

  // Capsule-Mercury sections (sm_100+) form a world of their own, merged
  // after the SASS sections.
  static bool is_mercury_section(const ElfSection &in) { return (in.flags & SHF_CUDA_MERC) != 0; }

  // The output section an input section goes to. On sm_100 and newer nvlink
  // works with the bank names of the Mercury world (".nv.constant.user" for
  // bank 3), renaming them when the link is done.
  std::string_view output_name(std::string_view name) const;

  // ".nv.constant<N>.<f>" (N != 0) of a function that is not a kernel.
  // ".nv.constant<digits>.<name>": a kernel's parameter bank or a function's
  // own bank.
  static bool names_per_function_bank(std::string_view name);

  bool is_function_bank(std::string_view name) const;

  // The bank of a dropped weak copy whose kept definition (merged earlier)
  // has no such bank stays an ordinary section: nothing is copied into the
  // kernels' banks.
  bool lost_copy_of_unbanked_function(std::string_view name) const;

  // This input's definition of function `fn`, if it has one (the first).
  std::optional<u32> defined_function(std::string_view fn) const;

  OutputSection *detach_function_bank(u32 i);
  // -r: the entries of .nv.uft.entry/.nv.udt.entry (ctx.out.unified_entries).
  void note_unified_entries(u32 i);
  // -r: a weak function's bank merged as an ordinary section, the copies
  // that held the function in turn sharing one place.
  OutputSection *merge_relocatable_function_bank(OutputSection *out, u32 i);
  // This input's copy of weak function `fn` never held it and comes before
  // the kept one (-r: its bank leaves nothing, h p a).
  bool passed_over_before_kept(std::string_view fn) const;

  void append_data(OutputSection *out, u32 i);

  // Kernel pruning: where this input's constant bank bytes go (merge.h).
  void note_constant_chunk(OutputSection *out, const ElfSection &in, u64 offset, u64 align);

  // sm_100+: the bytes of debug section `i`, to be placed at `offset` of its
  // output section, as nvlink edits them; nullopt where it copies them as
  // they are (src/mercury/merge_debug.cpp).
  std::optional<std::vector<u8>> mercury_debug_edit(u32 i, u64 offset);

  // sm_100+: nvlink rewrites .debug_frame without the entries (FDEs) of
  // functions that do not reach the output, and without the CIEs no kept
  // entry uses. Records which input byte ranges survive, and where.
  std::vector<u8> filter_debug_frame(u32 i, u64 base);

  // Whether nvlink drops the debug records (FDE rows, line sequences,
  // relocations outside .debug_info) of this input's function symbol `k`:
  // a weak copy that did not keep the definition. (A later holder replaced
  // in its turn, mid of wide:mid:narrow, is in later_weak_copy_ too: its
  // records stay.)
  bool debug_copy_dropped(u32 k) const;

  // sm_100+ (-lineinfo): nvlink rewrites .debug_line and .nv_debug_line_sass
  // without the line-number sequences (DW_LNE_set_address .. end_sequence)
  // of functions that do not reach the output; each unit's unit_length
  // shrinks accordingly. (The Mercury twins are copied as they are.)
  // Records which input byte ranges survive, and where; an input this does
  // not parse is copied unchanged.
  std::vector<u8> filter_line_table(u32 i);

  // sm_100+ -G: .nv_debug_info_reg_sass lists, per function (its name,
  // NUL, u32 count), entries of u32, register name, NUL, 3 bytes, u8 kind
  // (2 predicate, 5 register), u32 start and u32 end code offsets. nvlink
  // zeroes start and end of every entry of a function the link removes
  // (measured: gdebug_single's never_called, gdebug_2tu's unused_fn; sm_90
  // keeps them; the Mercury twin is copied as it is). An input this does
  // not parse is copied unchanged.
  std::vector<u8> filter_register_map(u32 i);

  // Where `sym` comes in the output's .symtab: locals, then globals, each
  // in creation order (writer.cpp); nullopt if unknown.
  std::optional<std::pair<int, size_t>> symbol_order(const OutputSymbol *sym) const;

  // sm_100+: the CIE + FDE that replace this input's FDE of weak function
  // `fn` when the kept copy changed hands during the link (§15.2).
  //  * the first definer's FDE: the final holder's SASS CIE and FDE;
  //  * a later holder's FDE: its own Mercury CIE and a stub FDE (CIE
  //    pointer, start, the Mercury FDE's range, four zero bytes).
  // (The first definer's FDE is the final holder's with the replaced
  // copies' rows added: merged_holder_fde, §15.5.)
  std::optional<std::vector<u8>> weak_holder_frame(std::string_view fn, u64 fde_start);

  // The final holder's SASS FDE (entry `k` of `wbytes`) with the rows of
  // the copies it replaced added (§15.5): each replaced holder's Mercury FDE
  // rows, placed at the final holder's instruction that starts at the same
  // Mercury offset. nullopt: nothing to add (or not readable), so the FDE is
  // copied as it is.
  std::optional<std::vector<u8>> merged_holder_fde(std::string_view fn, const std::vector<u32> &holders,
                                                   const InputObject &winner, const std::vector<u8> &wbytes,
                                                   size_t k);

  // A weak copy merged before the kept one that never held the function
  // (it did not beat the copy held when it was merged, §15.2): its debug
  // records go like those of a copy merged after the kept one.
  bool passed_over_copy(u32 k) const;

  // Whether nvlink leaves the frame entries alone when the kept copy of weak
  // function `fn` changes hands: where the first definer's copy has its own
  // constant bank with a relocation section (".rela.nv.constant2.<fn>";
  // sm_75-89 banks have none), or, sm_90+, where a copy that held the
  // function and was replaced (the first definer, or a later holder that
  // lost in its turn: mid of wide:mid:narrow) has code relocations
  // (".rela.text.<fn>": calls, __device__ variables). Then the debug
  // records of the copies merged before the kept one go (sm_100+: their
  // entries too), and the kept copy keeps its own (probes a2:b0, a2:c1:b0,
  // a2:ub0 vs ua2:b0 on sm_90/sm_100/sm_120, §6; §15.6). sm_75-89 keep
  // them whatever the code relocations; the final holder's do not count.
  bool frames_not_rewritten(std::string_view fn) const;

  const InputObject *input_by_index(u32 index) const;

  // Where input offset `offset` of section `i` ended up (relative to the
  // input's part of the merged section), if it survived.
  std::optional<u64> surviving_offset(u32 i, u64 offset) const;

  // Sections that belong to a function dead-code elimination removed:
  // .text.<f>, .nv.info.<f>, .nv.constant0.<f>, .nv.constant2.<f>,
  // .nv.shared.<f> and relocation sections for them.
  bool is_dead_section(u32 i) const;

  // An uninitialised-data section whose every variable lost to an earlier
  // weak definition adds nothing to the output.
  bool holds_only_dropped_variables(u32 i) const;
  // -r, .nv_debug.shared: this input's WEAK variables of section i that an
  // earlier input defined first (their copies take no space).
  // `all`: set when every variable of the section is such a copy.
  u64 dropped_debug_shared_bytes(u32 i, bool *all = nullptr) const;
  // The bytes of the variables of section i.
  u64 variable_bytes(u32 i) const;

  bool names_discarded_function(std::string_view fn) const;

  // Whether this input's copy of weak function `name` is the one kept: the
  // copy with the fewest registers (the first on ties).
  bool is_weak_winner(std::string_view name) const;

  // A function of this input whose definition does not reach the output.
  bool dropped_function(u32 i) const;

  std::optional<u32> input_section_named(std::string_view name) const;

  u64 definition_position(const ElfSymbol &in) const;
  void define(OutputSymbol *out, const ElfSymbol &in, OutputSection *sec, u64 offset);

  // A strong function defined twice is an error even where dead-code
  // elimination drops one copy or both; the case of two live copies is
  // reported where the second is merged.
  bool duplicate_of_dead_definition(u32 i, bool live);

  // Every mention of a global function, references included, must agree
  // with the first on being a kernel (measured; reported before a multiple
  // definition, with the demangled name).
  void check_function_kind(u32 i);
  // NameHash of symbol `i`'s name (found before the merge).
  size_t name_hash(u32 i) const { return obj_.merge_prep.symbol_hashes.at(i); }
  // NameHash of input section `i`'s name.
  size_t section_name_hash(u32 i) const { return obj_.merge_prep.section_hashes.at(i); }

  // Pass 1.
  void merge_function_symbols();

  // The output code section of a live function (validate.cpp checked that
  // the input section is code; one the merge does not map is corrupt too).
  OutputSection *code_section_of(const ElfSymbol &s, const KernelFilter &filter);

  void merge_local_function(u32 i, const ElfSymbol &s, const KernelFilter &filter);

  // A kernel kept under -kernels-used/-variables-used only because its
  // address is taken (a child kernel launched from the device,
  // libcudadevrt's memcpy/memset kernels): nvlink merges it like a device
  // function (no .nv.info.<k>/.nv.shared.<k> in pass 1, no MIN_STACK_SIZE),
  // though its symbol stays an entry (docs/notes/inputs.md §10).
  static bool is_non_root_kernel(const KernelFilter &filter, const ElfSymbol &s);

  // The function's .text, then .nv.info.<f>, then for kernels .nv.shared.<k>.
  OutputSection *map_function_sections(const ElfSymbol &s, const KernelFilter &filter);

  // Pass 2.
  void merge_other_symbols();

  // A `.common` variable (st_shndx SHN_COMMON, st_value its alignment):
  // nvlink keeps the largest size of all its `.common` occurrences and the
  // alignment of the first, then allocates it at the end of .nv.global once
  // every input is merged (allocate_common_symbols).
  void merge_common_symbol(OutputSymbol *out, const ElfSymbol &s);

  // Every mention of a global variable must agree with the first on the
  // memory space and the managed attribute (measured messages, in this
  // order, then the size and definition checks). Shared variables and the
  // others are merged apart, so where the two kinds meet the size and the
  // definitions are checked here: an unsized `extern __shared__` (dynamic
  // shared memory) counts as a definition then.
  void check_variable_kind(const ElfSymbol &s);

  // A namespace-scope `__shared__` variable follows the rules of the other
  // variables (measured): a size that differs from the one first recorded
  // (an unsized `extern` records none; a definition records its own) is
  // "Size doesn't match", a second definition is "Multiple definition"
  // (same size or not), both naming the input that first mentioned the
  // variable. A WEAK definition after another, or any after a WEAK one, is
  // a later copy: true, and the first definition stays.
  bool check_shared_declaration(const ElfSymbol &s);
  // A GLOBAL `__shared__` variable or `extern __shared__` declaration, i
  // its index in the input's symbol table.
  void merge_shared_variable(u32 i, const ElfSymbol &s);

  // `extern __shared__` arrays all live in the dynamic shared memory after a
  // kernel's static shared memory; nvlink records them with a
  // .nv_debug.shared section instead of symbols (created by the first
  // shared symbol that is not a sized `extern`). `named`: false for an
  // STV_INTERNAL one (a -r output's `externsharedinstance`), which -g lays
  // out as an array (one address) but gives no symbol
  // (relocatable_two_stage_dynamic, _shared with -g). `weak_definition`:
  // created by a WEAK definition (a template kernel's function-scope
  // __shared__ array), whose -g symbol is WEAK and in the local array.
  OutputSymbol *extern_shared_symbol(std::string_view name, bool creates_section = true,
                                     bool sized = false, bool named = true, bool weak_definition = false);

  // Local variables. Shared variables, a kernel's parameter-bank symbol and
  // nameless locals stay internal (they never reach the output); the others
  // (string literals, math tables...) become local symbols of the output.
  void merge_local_variable(u32 i, const ElfSymbol &s);

  // sm_75-90: the parameter bank of a replaced weak kernel (template
  // __global__) keeps this first copy's place, empty until the kept copy's
  // bank fills it (§15.6). The place is taken where the bank's section would
  // have been created: at its `_param` symbol (pass 2), so before the banks
  // of kernels whose `_param` comes later in the input, else at its section
  // symbol (pass 3).
  void reserve_replaced_kernel_bank(u32 shndx);

  // Pass 3.
  void merge_section_symbols();

  // nvlink finalizes sm_100 code again for an sm_103 target, and there the
  // double-precision arithmetic (DMUL, DADD, DSETP, DFMA: opcodes 0x28-0x2b
  // in the low 9 bits) comes out re-encoded: scoreboarded, and longer
  // sequences for division and square root (docs/notes/mixed-arch.md). dlink
  // keeps the input code, so it refuses such a link instead of writing code
  // that differs from nvlink's and may not be valid on sm_103.
  void refuse_code_needing_reencoding(const ElfSection &text);

  // Pass 4.
  void merge_section_contents();

  // .nv.compat: the first input's records; record 0x02 (the ISA class) is
  // the largest of all inputs; record 0x0b is the bitwise AND over the inputs
  // that contribute live code (measured on sm_100/sm_120 links and on
  // sm_100 -> sm_103, sm_120 -> sm_121 links).
  void merge_compat(const ElfSection &in);

  OutputSymbol *mapped_symbol(u32 index) const;

  void merge_module_info(const ElfSection &in);

  // The output .nv.info.<f> this input's records go to (a local function's
  // is this input's own).
  OutputSection *function_info_section(std::string_view name, size_t hash);
  OutputSection *function_info_section(std::string_view name) { return function_info_section(name, NameHash{}(name)); }
  // Records a .nv.info.<f> this input's merge created, for function_info_section.
  OutputSection *keep_own_info_section(OutputSection *info);

  void merge_function_info(const ElfSection &in);

  // A weak function whose winning copy comes from a later input: like its
  // code section, its relocation sections take their place here (the later
  // copy's relocations fill them).
  void keep_place_for_later_winner(const ElfSection &in);

  // Shared variables and bound texture references a removed function refers to.
  void note_dead_code_references(const ElfSection &in);

  bool references_constant_variable(const ElfReloc &r) const;

  bool references_bound_texture(const ElfReloc &r) const;

  // Whether nvlink also creates the REL twin of RELA section `in`.
  bool wants_rel_twin(const ElfSection &in, const std::vector<ElfReloc> &relocs) const;

  void merge_relocs(const ElfSection &in);

  void merge_callgraph(const ElfSection &in);

  void merge_prototypes(const ElfSection &in);

  Context &ctx_;
  InputObject &obj_;
  // Relocation and record conversions left to the end of the merge.
  MergeBacklog &backlog_;
  bool local_function_section(std::string_view name) const {
    return InputObject::MergePrep::has(obj_.merge_prep.local_function_sections, name);
  }
  // Whether ".text.<fn>" is a local function's section (without making the
  // name).
  bool local_function(std::string_view fn) const;
  bool repeated_section_name(std::string_view name) const {
    return InputObject::MergePrep::has(obj_.merge_prep.repeated_section_names, name);
  }
  // The .nv.info.<f> this input's merge created, by name (the section's own
  // name; looked up for local functions: function_info_section).
  NameMap<OutputSection *> own_info_sections_;
  // A -r output's local functions of one name (several first-stage inputs'
  // copies): the .nv.info.<f> of each copy, by the index of its code section
  // (repeated_section_name: the names the input holds more than once).
  std::map<u32, OutputSection *> copy_info_sections_;
  std::vector<OutputSection *> sec_map_;
  std::vector<u64> sec_off_;
  std::vector<OutputSymbol *> sym_map_;
  // Function definitions of this input that lost to an earlier definition
  // (weak functions defined in several inputs).
  std::vector<bool> discarded_;
  std::set<u32> later_weak_copy_;
  using FrameRange = InputObject::KeptRange;
  std::map<u32, std::vector<FrameRange>> frame_ranges_;
  // Weak copies that lose to a later input's (their debug records stay).
  std::set<u32> winner_elsewhere_;
  // Per input section: byte ranges of weak variables whose definition lost.
  std::map<u32, std::vector<std::pair<u64, u64>>> dropped_ranges_;
  // sm_100+ -r: this input's optimizer-bank variables named so far (each is
  // "<bank>.<n>", n counted from 1 over all of the input's banks).
  u32 optimizer_variables_ = 0;
  // Dynamic arrays this input is the first to name (--preserve-relocs).
  std::vector<OutputSymbol *> new_dynamic_arrays_;

public:
  bool multiple_definition_ = false;
};

} // namespace dlink
