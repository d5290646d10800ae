// Creation of output sections and symbols in nvlink's order (see
// link_context.h for why creation order matters).
#pragma once

#include "link_context.h"

#include <functional>

namespace dlink {

// Classifies a section by name and type.
SectionKind classify_section(std::string_view name, u32 type);

// Whether nvlink gives sections of this kind a section symbol in .symtab.
bool kind_has_section_symbol(SectionKind kind);

// Creates an output section and its section symbol, recording the names in
// the string-table event lists. Creating a per-kernel parameter bank
// (.nv.constant0.<k>) also creates its .rel companion first, as nvlink does.
OutputSection *create_section(Context &ctx, std::string_view name, u32 type, u64 flags,
                              u64 align, u64 entsize = 0);
// The same with the name's NameHash computed beforehand.
OutputSection *create_section(Context &ctx, std::string_view name, size_t hash, u32 type, u64 flags,
                              u64 align, u64 entsize);
// The call-graph sections (.nv.callgraph, .nv.prototype), created once: by
// the first per-kernel constant bank made at layout time, else when the
// link's sections are finished.
void create_callgraph_sections(Context &ctx);

OutputSection *find_section(Context &ctx, std::string_view name);
OutputSection *find_section(Context &ctx, std::string_view name, size_t hash);

// Two-step creation, for sections whose contents are known while merging but
// which nvlink creates (names, section symbol) later: new_section() makes
// the object and its symbol, register_section() records the creation.
OutputSection *new_section(Context &ctx, std::string_view name, u32 type, u64 flags, u64 align,
                           u64 entsize = 0);
void register_section(Context &ctx, OutputSection *sec, bool with_symbol = true);
void register_section(Context &ctx, OutputSection *sec, bool with_symbol, size_t hash);
// The .strtab name and section symbol register_section(.., false) left out.
void add_section_symbol(Context &ctx, OutputSection *sec);

// Renames a section as nvlink does: in place in .shstrtab (padding the
// rest of the old name with NULs), appended to .strtab.
// (strtab_name: whether the new name gets a .strtab string.)
void rename_section(Context &ctx, OutputSection *sec, std::string_view new_name,
                    bool strtab_name = true);

// Creates the sections every output starts with (.shstrtab, .strtab,
// .symtab, the notes, .nv.info and, for sm_90 and newer, .nv.compat).
void create_skeleton(Context &ctx);

OutputSymbol *create_global(Context &ctx, std::string_view name, bool weak_definition = false);
// The same with the name's NameHash computed beforehand.
OutputSymbol *create_global(Context &ctx, std::string_view name, bool weak_definition, size_t hash);
// A local symbol that appears in the output's .symtab (its name goes to
// .strtab now, unlike global names).
OutputSymbol *create_local(Context &ctx, std::string_view name);
// A name for .strtab, among the local symbols' names (the late ones once
// the globals are fixed).
void add_strtab_name(Context &ctx, std::string_view name);
// Appends to nvlink's local symbol array (late_locals once it is closed).
void add_local_symbol(Context &ctx, OutputSymbol *sym);
// Takes a created symbol back: no entry in the symbol tables, and a local's
// name (added by create_local) leaves .strtab too.
void forget_symbol(Context &ctx, OutputSymbol *sym);
OutputSymbol *find_global(Context &ctx, std::string_view name);
OutputSymbol *find_global(Context &ctx, std::string_view name, size_t hash);

// An input EIATTR record as an output record: the symbol fields (REGCOUNT,
// FRAME_SIZE, PARAM_CBANK, EXTERNS...) are mapped through `symbol_of`.
InfoRecord to_output_record(const EiRecord &r,
                            const std::function<OutputSymbol *(u32)> &symbol_of);

// The relocation section for `target` (".rela<name>" or ".rel<name>"),
// created on first use.
OutputSection *reloc_section_for(Context &ctx, OutputSection *target, bool rela);
// --preserve-relocs: `.nv.resolvedrela<target>` (SHT_CUDA_RESOLVED_RELA),
// created with the first relocation section an input gives `target`.
OutputSection *resolved_rela_section_for(Context &ctx, OutputSection *target);

// caller -> callee, callees of one caller in insertion order.
using CalleeMap = std::multimap<const OutputSymbol *, const OutputSymbol *>;

// The merged call graph's direct call edges.
CalleeMap direct_callees(const Context &ctx);
// The direct calls plus, for each indirect call site, every address-taken
// function of the site's prototype (as -dump-callgraph shows them).
CalleeMap callees_with_indirect(const Context &ctx);
// The same edges, visited: the direct calls in merge order, then the
// indirect ones (each caller's callees in CalleeMap's order).
void for_each_call_edge(const Context &ctx,
                        const std::function<void(const OutputSymbol *caller, const OutputSymbol *callee)> &visit);

// `root` and every function it reaches over `callees`.
std::set<const OutputSymbol *> reached_from(const OutputSymbol *root, const CalleeMap &callees);

} // namespace dlink
