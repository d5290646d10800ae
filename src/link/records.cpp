// The merge stage (merge.h): per-section records: .nv.compat, .nv.info
// records and relocations.
#include "link/input_merger.h"
#include "arch_format.h"
#include "merge.h"

#include "dlink/demangle.h"
#include "dlink/reloc_types.h"

#include "dead_code.h"
#include "elf/dwarf_frame.h"
#include "mercury/merge_twins.h"
#include "output_model.h"
#include "relocatable.h"
#include "input_prefetch.h"
#include "validate.h"

#include <algorithm>
#include <functional>

namespace dlink {

void InputMerger::merge_compat(const ElfSection &in) {
  std::vector<EiRecord> recs = parse_eiattrs(in.data);
  bool has_code = false;
  for (u32 i = 1; i < obj_.symbols.size(); i++)
    if (obj_.symbols[i].type() == STT_FUNC && obj_.symbols[i].shndx != SHN_UNDEF &&
        !dropped_function(i))
      has_code = true;
  // (sm_100: nvlink sets bit 0x8 of record 0x0b again where the functions
  // that cleared it in an input, such as ptxas's float-division slow path,
  // are removed; which of their properties it reads is not known. dlink
  // keeps the input's record, as ptxas wrote it for that code:
  // compat_dead_slowpath and dead_code's two-stage link differ there.)
  OutputModel &out = ctx_.out;
  if (!out.have_compat) {
    out.compat = recs;
    out.have_compat = true;
    for (EiRecord &r : out.compat)
      if (r.attr == 0x0b && !has_code)
        r.payload = {}; // decided by the first input with code
  } else {
    for (const EiRecord &r : recs)
      for (EiRecord &o : out.compat)
        if (o.attr == r.attr && r.attr == 0x02)
          o.value = std::max(o.value, r.value);
  }
  if (!has_code)
    return;
  for (const EiRecord &r : recs) {
    if (r.attr != 0x0b || r.payload.size() < 8)
      continue;
    for (EiRecord &o : out.compat) {
      if (o.attr != 0x0b)
        continue;
      u64 v = read_le<u64>(r.payload.data());
      // Code built for an older SM of the family (sm_100 for sm_103, sm_120
      // for sm_121) contributes nothing: its record is the old SM's.
      if (obj_.elf.sm() != ctx_.arch.sm)
        v = 0;
      if (out.compat_0b_seen)
        v &= out.compat_0b;
      out.compat_0b = v;
      out.compat_0b_seen = true;
    }
  }
}

OutputSymbol *InputMerger::mapped_symbol(u32 index) const {
  if (index == 0 || index >= sym_map_.size())
    return nullptr;
  return sym_map_[index];
}

void InputMerger::merge_module_info(const ElfSection &in) {
  DeferredConversion job;
  job.kind = DeferredConversion::Kind::ModuleRecords;
  job.out = find_section(ctx_, ".nv.info");
  job.obj = &obj_;
  job.section = section_index(in);
  job.records = &section_records(obj_, in);
  backlog_.jobs.push_back(std::move(job));
}

bool InputMerger::local_function(std::string_view fn) const {
  // (The sorted names compared with ".text.<fn>" piece by piece.)
  constexpr std::string_view kText = ".text.";
  auto before = [&](std::string_view name, std::string_view f) {
    size_t n = std::min(name.size(), kText.size());
    if (int c = name.substr(0, n).compare(kText.substr(0, n)); c != 0)
      return c < 0;
    return name.size() < kText.size() || name.substr(kText.size()) < f;
  };
  const std::vector<std::string_view> &names = obj_.merge_prep.local_function_sections;
  auto it = std::lower_bound(names.begin(), names.end(), fn, before);
  return it != names.end() && it->size() == kText.size() + fn.size() && it->starts_with(kText) &&
         it->substr(kText.size()) == fn;
}

OutputSection *InputMerger::keep_own_info_section(OutputSection *info) {
  // (Looked up by name for local functions only.)
  if (local_function(info->name.substr(9)))
    own_info_sections_.insert_or_assign(info->name, info);
  return info;
}

OutputSection *InputMerger::function_info_section(std::string_view name, size_t hash) {
  if (!local_function(name.substr(9)))
    return find_section(ctx_, name, hash);
  auto it = own_info_sections_.find(name);
  return it == own_info_sections_.end() ? nullptr : it->second;
}

void InputMerger::merge_function_info(const ElfSection &in) {
  std::string_view name = in.name;
  // (A -r output's local functions of one name keep one section each:
  // relocatable_two_stage_locals.)
  const bool copy = repeated_section_name(name) && local_function(name.substr(9));
  OutputSection *info = nullptr;
  if (copy) {
    OutputSection *&slot = copy_info_sections_[in.info];
    if (!slot)
      slot = create_section(ctx_, name, SHT_CUDA_INFO, SHF_INFO_LINK, 4);
    info = slot;
  } else {
    info = function_info_section(name, section_name_hash(section_index(in)));
  }
  if (!info)
    info = keep_own_info_section(
        create_section(ctx_, name, section_name_hash(section_index(in)), SHT_CUDA_INFO, SHF_INFO_LINK, 4, 0));
  if (in.info < sec_map_.size() && sec_map_[in.info] && sec_map_[in.info]->func)
    info->func = sec_map_[in.info]->func;
  DeferredConversion job;
  job.kind = DeferredConversion::Kind::FunctionRecords;
  job.out = info;
  job.obj = &obj_;
  job.section = section_index(in);
  job.records = &section_records(obj_, in);
  job.bank_tail = arch_format(ctx_.arch).late_parameter_banks;
  backlog_.jobs.push_back(std::move(job));
}

void InputMerger::keep_place_for_later_winner(const ElfSection &in) {
  if (in.info >= obj_.elf.sections.size())
    return;
  const ElfSection &target = in_section(in.info);
  if (kind_of(in.info) != SectionKind::Text)
    return;
  auto k = defined_function(target.name.substr(6));
  // (Only a copy that held the function: one passed over, never better
  // than the copy held when it was merged, leaves nothing; §15.6.)
  if (!k || !winner_elsewhere_.count(*k) || passed_over_copy(*k))
    return;
  // (The REL twin too, by the rule of merge_relocs: a replaced copy
  // calling a local slow-path helper, weak_helper_replaced; §15.6.)
  if (OutputSection *text = find_section(ctx_, target.name)) {
    reloc_section_for(ctx_, text, in.type == SHT_RELA);
    if (ctx_.opts.preserve_relocs) // (weak_kernel_replaced, weak_helper_replaced)
      resolved_rela_section_for(ctx_, text);
    if (in.type == SHT_RELA && wants_rel_twin(in, section_relocs(obj_, in)))
      reloc_section_for(ctx_, text, false);
  }
}

void InputMerger::note_dead_code_references(const ElfSection &in) {
  // They count from unreachable functions only, and of a weak function
  // only from the copy weak resolution keeps.
  bool unreachable = false;
  if (in.info < obj_.elf.sections.size()) {
    const ElfSection &target = in_section(in.info);
    if (kind_of(in.info) == SectionKind::Text)
      if (auto k = defined_function(target.name.substr(6)))
        unreachable = !is_live_function(ctx_, obj_, *k) &&
                      (obj_.symbols[*k].bind() != STB_WEAK || is_weak_winner(obj_.symbols[*k].name));
  }
  if (!unreachable)
    return;
  for (const ElfReloc &r : section_relocs(obj_, in)) {
    if (!r.sym || r.sym >= obj_.symbols.size())
      continue;
    if (OutputSymbol *sym = mapped_symbol(r.sym); sym && sym->namespace_shared)
      sym->referenced_by_dead_code = true;
    if (references_bound_texture(r)) {
      ctx_.out.dead_code_uses_references = true;
      if (obj_.symbols[r.sym].type() != STT_CUDA_TEXTURE)
        ctx_.out.dead_code_uses_sampler_references = true;
    }
  }
}

bool InputMerger::references_constant_variable(const ElfReloc &r) const {
  if (!r.sym || r.sym >= obj_.symbols.size())
    return false;
  const ElfSymbol &s = obj_.symbols[r.sym];
  return s.type() != STT_SECTION && s.shndx != SHN_UNDEF && s.shndx < obj_.elf.sections.size() &&
         obj_.elf.sections[s.shndx].name.starts_with(".nv.constant");
}

bool InputMerger::references_bound_texture(const ElfReloc &r) const {
  return r.sym && r.sym < obj_.symbols.size() && is_bound_texture_type(obj_.symbols[r.sym].type());
}

// A later copy of a weak function: its debug records go, without clearing
// (the name resolves to the first copy); its -G .debug_info and .debug_loc
// entries keep theirs (DW_AT_low_pc/high_pc, location ranges, now the kept
// copy's: measured with glink_3tu's twice<int> and glink_nvcc's clampv<int>,
// with and without -g). Whether the relocations against section `target`
// lose those of the input's dropped copies (InputObject::dropped_debug_copies).
static bool drops_weak_copy_debug_records(const ElfSection &target) {
  return !(target.flags & SHF_ALLOC) && !keeps_weak_copy_relocs(target.name);
}

bool InputMerger::wants_rel_twin(const ElfSection &in, const std::vector<ElfReloc> &relocs) const {
  // nvlink also creates the REL twin of a RELA section when a relocation
  // without addend follows the section's first relocation (measured over
  // the golden corpus and random call graphs; the twin is dropped again if
  // it stays empty, its name stays in .shstrtab). On sm_100+ the rule runs
  // over the Mercury twin's relocations, which can hold more (one against
  // .nv.reservedSmem.cap before a shared-memory reference) and none for
  // values resolved into the capsule.
  // (A later weak copy's debug records, which merge_relocs drops, take no
  // part: weak_debug_line_twin.)
  auto plain = [](const ElfReloc &r) { return r.addend == 0; };
  std::vector<ElfReloc> counted;
  std::set<std::string_view> dropped;
  // (Copied only when some are dropped, which debug sections alone have.)
  auto dropped_record = [&](const ElfReloc &r) {
    return r.sym && r.sym < obj_.symbols.size() && obj_.dropped_debug_copies[r.sym];
  };
  if (drops_weak_copy_debug_records(in_section(in.info)))
    for (const ElfReloc &r : relocs)
      if (dropped_record(r))
        dropped.insert(obj_.symbols[r.sym].name);
  if (!dropped.empty())
    for (const ElfReloc &r : relocs)
      if (!dropped_record(r))
        counted.push_back(r);
  const std::vector<ElfReloc> twin_relocs = mercury_twin_relocs(ctx_, obj_, in.name, dropped);
  bool has_twin = !twin_relocs.empty() ||
                  (!dropped.empty() && !mercury_twin_relocs(ctx_, obj_, in.name).empty());
  const std::vector<ElfReloc> &order = has_twin ? twin_relocs : dropped.empty() ? relocs : counted;
  bool plain_after_first = !order.empty() && std::any_of(order.begin() + 1, order.end(), plain);
  // (sm_100+ input without Mercury relocations: also when every relocation
  // has no addend, unless it is a lone one against a bound texture
  // reference or a __constant__ variable.)
  auto no_addend = std::count_if(relocs.begin(), relocs.end(), plain);
  bool lone_resolved = relocs.size() == 1 && (references_bound_texture(relocs.front()) ||
                                              references_constant_variable(relocs.front()));
  bool all_plain = arch_format(ctx_.arch).rel_twin_when_no_addends && !has_twin && no_addend > 0 &&
                   static_cast<size_t>(no_addend) == relocs.size() && !lone_resolved;
  return plain_after_first || all_plain;
}

void InputMerger::merge_relocs(const ElfSection &in) {
  if (in.info >= sec_map_.size())
    ctx_.diag.fatal("section not mapped");
  OutputSection *target = sec_map_[in.info];
  if (!target)
    target = map_section(in.info);
  if (!target)
    ctx_.diag.fatal("section not mapped");
  // sm_100+: a device function's own bank comes with an empty
  // ".rela.nv.constant2.<f>" that nvlink drops (§16); its bytes are copied
  // into the kernels' banks.
  if (target->detached) {
    if (!section_relocs(obj_, in).empty())
      ctx_.diag.fatal(fmt::format("unsupported: relocations in '{}'", in.name));
    // (sm_100+ --preserve-relocs: a .nv.resolvedrela name under the bank's
    // working name stays in the string tables, with no section:
    // recursion's is_even.)
    std::string_view prefix = arch_format(ctx_.arch).optimizer_bank_prefix;
    if (ctx_.opts.preserve_relocs && !prefix.empty() && target->name.starts_with(".nv.constant2.")) {
      OutputSection *named = create_section(
          ctx_, fmt::format(".nv.resolvedrela{}.{}", prefix, target->name.substr(14)),
          SHT_CUDA_RESOLVED_RELA, SHF_INFO_LINK, 8, kRelaSize);
      named->kind = SectionKind::Reloc;
      named->rela = true;
      named->resolved_rela = true; // empty: dropped with the other empty ones
    }
    return;
  }
  bool rela = in.type == SHT_RELA;
  // sm_75-90: an empty input relocation section (ptxas writes an empty
  // ".rela.nv.constant2.<k>" for a kernel whose bank holds a jump table,
  // sm_90) creates no output section: its name is in neither string table
  // (testdata/src/empty_rela_constant2). On sm_100+ the SASS section
  // stays when its Mercury twin has entries, so it is created there.
  if (in.data.empty() && !arch_format(ctx_.arch).empty_reloc_sections_created)
    return;
  OutputSection *out = reloc_section_for(ctx_, target, rela);
  if (ctx_.opts.preserve_relocs)
    resolved_rela_section_for(ctx_, target);
  if (target->name.starts_with(".nv.constant.optimizer.") && rela &&
      std::find(ctx_.out.optimizer_relas.begin(), ctx_.out.optimizer_relas.end(), out) ==
          ctx_.out.optimizer_relas.end())
    ctx_.out.optimizer_relas.push_back(out);
  const std::vector<ElfReloc> &relocs = section_relocs(obj_, in);
  if (rela && wants_rel_twin(in, relocs))
    reloc_section_for(ctx_, target, false);
  DeferredConversion job;
  job.kind = DeferredConversion::Kind::Relocs;
  job.out = out;
  job.obj = &obj_;
  job.section = section_index(in);
  job.relocs = &relocs;
  job.seq = ctx_.out.reloc_seq;
  // (One number per input relocation, kept or not: only their order counts.)
  ctx_.out.reloc_seq += static_cast<u32>(relocs.size());
  backlog_.jobs.push_back(std::move(job));
}

namespace {

OutputSymbol *mapped(const InputObject &obj, u32 index) {
  return index == 0 || index >= obj.sym_map.size() ? nullptr : obj.sym_map[index];
}

// InputMerger::dropped_function, as the merge of the input left it.
bool dropped(const Context &ctx, const InputObject &obj, u32 i) {
  return i < obj.symbols.size() && (!is_live_function(ctx, obj, i) || obj.discarded[i]);
}

// A record naming a function of the input that does not reach the output
// (its stack and register records go with it).
bool names_dropped_function(const Context &ctx, const InputObject &obj, const EiRecord &r) {
  if (r.format != EIFMT_SVAL || r.payload.size() < 4)
    return false;
  switch (r.attr) {
  case EIATTR_REGCOUNT:
  case EIATTR_FRAME_SIZE:
  case EIATTR_MAX_STACK_SIZE:
  case EIATTR_MIN_STACK_SIZE:
  case EIATTR_CRS_STACK_SIZE:
    return dropped(ctx, obj, r.payload_u32(0));
  default:
    return false;
  }
}

InfoRecord converted(const InputObject &obj, const EiRecord &r) {
  return to_output_record(r, [&obj](u32 index) { return mapped(obj, index); });
}

// Where a job's converted relocations and records go: its output
// section's lists, or a part of them appended later.
struct ConversionSink {
  std::vector<OutputReloc> &relocs;
  std::vector<InfoRecord> &records, &tail_records;
};

void convert_relocs(const Context &ctx, const DeferredConversion &job, std::vector<OutputReloc> &into) {
  const InputObject &obj = *job.obj;
  const ElfSection &in = obj.elf.sections[job.section];
  const ElfSection &target = obj.elf.sections[in.info];
  const bool debug_target = drops_weak_copy_debug_records(target);
  const u64 base = obj.sec_off[in.info];
  const auto dropped_here = obj.dropped_ranges.find(in.info);
  u32 seq = job.seq;
  for (const ElfReloc &r : *job.relocs) {
    u32 this_seq = seq++;
    // References to removed functions vanish, except the clears that
    // exist for exactly that case (R_CUDA_UNUSED_CLEAR*).
    bool known = r.sym && r.sym < obj.symbols.size();
    bool dead_target = known && !is_live_function(ctx, obj, r.sym);
    // (A weak copy's debug records that nvlink drops.)
    if (known && debug_target && obj.dropped_debug_copies[r.sym])
      continue;
    if (dead_target && r.type != 0x48 && r.type != 0x49)
      continue;
    if (dropped_here != obj.dropped_ranges.end() &&
        std::any_of(dropped_here->second.begin(), dropped_here->second.end(),
                    [&](const auto &rg) { return r.offset >= rg.first && r.offset < rg.second; }))
      continue;
    auto kept_at = surviving_offset(obj.kept_ranges, in.info, r.offset);
    if (!kept_at)
      continue; // inside a debug-frame entry that was removed
    OutputReloc o;
    o.offset = *kept_at + base;
    o.sym = mapped(obj, r.sym);
    o.type = r.type;
    o.addend = r.addend;
    o.seq = this_seq;
    if (const RelocDesc *desc = find_reloc(r.type);
        desc && occupies_file_space(target) && r.offset + reloc_field_bytes(*desc) > target.size)
      o.overruns_input = true;
    if (known && obj.symbols[r.sym].type() == STT_SECTION && obj.symbols[r.sym].shndx < obj.sec_off.size())
      o.bias = obj.sec_off[obj.symbols[r.sym].shndx];
    into.push_back(o);
  }
}

} // namespace

static void run_deferred_conversion(const Context &ctx, const DeferredConversion &job, ConversionSink into) {
  switch (job.kind) {
  case DeferredConversion::Kind::Relocs:
    convert_relocs(ctx, job, into.relocs);
    break;
  case DeferredConversion::Kind::ModuleRecords:
    for (const EiRecord &r : *job.records)
      if (!names_dropped_function(ctx, *job.obj, r))
        into.records.push_back(converted(*job.obj, r));
    break;
  case DeferredConversion::Kind::FunctionRecords:
    for (const EiRecord &r : *job.records) {
      // sm_100+: the parameter-bank records are re-added after the merge,
      // in their input order.
      bool bank_record = r.attr == EIATTR_CBANK_PARAM_SIZE || r.attr == EIATTR_PARAM_CBANK ||
                         r.attr == EIATTR_SW_WAR;
      (job.bank_tail && bank_record ? into.tail_records : into.records).push_back(converted(*job.obj, r));
    }
    break;
  }
}

// The items (each has an `out`) grouped by output section: `order` lists
// them section by section, each section's in queue order, and run g is
// order[starts[g]] .. order[starts[g + 1] - 1] (the order of the sections
// does not matter).
struct SectionRuns {
  std::vector<u32> order;
  std::vector<size_t> starts;
  size_t count() const { return starts.size() - 1; }
  size_t size(size_t g) const { return starts[g + 1] - starts[g]; }
};

template <class T>
static SectionRuns runs_by_output_section(const std::vector<T> &items) {
  SectionRuns runs;
  runs.order.resize(items.size());
  for (u32 i = 0; i < runs.order.size(); i++)
    runs.order[i] = i;
  std::stable_sort(runs.order.begin(), runs.order.end(), [&](u32 a, u32 b) {
    return std::less<const OutputSection *>()(items[a].out, items[b].out);
  });
  for (size_t k = 0; k < runs.order.size(); k++)
    if (k == 0 || items[runs.order[k]].out != items[runs.order[k - 1]].out)
      runs.starts.push_back(k);
  runs.starts.push_back(runs.order.size());
  return runs;
}

void run_merge_backlog(const Context &ctx, MergeBacklog &backlog) {
  // The code bytes the merge placed (DeferredCopy): each section's pieces
  // in merge order, the gaps between them zero, the sections at once.
  const std::vector<DeferredCopy> &copies = backlog.copies;
  const SectionRuns pieces = runs_by_output_section(copies);
  ctx.par.for_each_index(pieces.count(), [&](size_t g) {
    OutputSection *out = copies[pieces.order[pieces.starts[g]]].out;
    const DeferredCopy &last = copies[pieces.order[pieces.starts[g + 1] - 1]];
    out->data.reserve(last.offset + last.bytes.size());
    for (size_t k = pieces.starts[g]; k < pieces.starts[g + 1]; k++) {
      const DeferredCopy &c = copies[pieces.order[k]];
      out->data.resize(c.offset, 0);
      out->data.insert(out->data.end(), c.bytes.begin(), c.bytes.end());
    }
  }, 8);
  backlog.copies.clear();
  // The code bytes were most of what the merge reads of the mapped inputs:
  // their pages leave the resident set before the conversions grow the
  // output (a conversion that reads an input's bytes again faults them in
  // from the page cache). Plain sm_90, 1,000 TUs at 2 threads: peak 301 -> 267
  // MiB (docs/performance.md).
  inputs::release_input_pages(ctx);
  // Then the relocations and records, each section's in merge order. Every
  // job is converted at once: a section's only job straight into it, the
  // jobs of a section with several (.nv.info's module records, the debug
  // sections' relocations: one per input) into parts of their own, which
  // are then appended in merge order.
  std::vector<DeferredConversion> &jobs = backlog.jobs;
  if (ctx.par.serial()) { // (in queue order: each section's jobs in theirs)
    for (const DeferredConversion &job : jobs)
      run_deferred_conversion(ctx, job, {job.out->relocs, job.out->records, job.out->tail_records});
    jobs.clear();
    return;
  }
  const SectionRuns runs = runs_by_output_section(jobs);
  struct Part {
    std::vector<OutputReloc> relocs;
    std::vector<InfoRecord> records, tail_records;
  };
  std::vector<Part> parts(jobs.size());
  std::vector<bool> shared(jobs.size(), false);
  for (size_t g = 0; g < runs.count(); g++)
    if (runs.size(g) > 1)
      for (size_t k = runs.starts[g]; k < runs.starts[g + 1]; k++)
        shared[runs.order[k]] = true;
  ctx.par.for_each_index(jobs.size(), [&](size_t i) {
    OutputSection *out = jobs[i].out;
    Part &part = parts[i];
    run_deferred_conversion(ctx, jobs[i],
                            shared[i] ? ConversionSink{part.relocs, part.records, part.tail_records}
                                      : ConversionSink{out->relocs, out->records, out->tail_records});
  }, 8);
  ctx.par.for_each_index(runs.count(), [&](size_t g) {
    if (runs.size(g) < 2)
      return;
    OutputSection *out = jobs[runs.order[runs.starts[g]]].out;
    auto append = [](auto &to, auto &from) {
      to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
      from = {};
    };
    for (size_t k = runs.starts[g]; k < runs.starts[g + 1]; k++) {
      Part &part = parts[runs.order[k]];
      append(out->relocs, part.relocs);
      append(out->records, part.records);
      append(out->tail_records, part.tail_records);
    }
  });
  jobs.clear();
}

} // namespace dlink
