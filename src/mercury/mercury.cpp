// Stage 5b: capsule-Mercury sections (mercury.h).
//
// Consumes the finished SASS output model and, per input, the Mercury twin
// sections nvlink skipped while merging; produces the Mercury group of the
// output. nvlink creates it after everything else, category by category:
//   .nv.capmerc.text.<f> (in .text order), .nv.merc.debug_frame,
//   .nv.merc.nv.info, .nv.merc.nv.info.<f>, .nv.merc.rela<sec>, the data
//   twins (.nv.merc.nv.constant.user, .nv.merc.nv.global.init) and
//   .nv.merc.symtab.
// Mercury symbols are the output's symbols seen through the Mercury symbol
// tables of the inputs: same names, the Mercury sections, the inputs' own
// types, visibility and sizes. Capsule code is opaque; only its relocations
// are processed, by the same rules as SASS relocations.
#include "mercury.h"
#include "mercury/capsule_patch.h"
#include "mercury/state.h"

#include "dead_code.h"
#include "merge.h"
#include "output_model.h"
#include "relocatable.h"
#include "reloc/relocate.h"
#include "dlink/reloc_types.h"

#include <algorithm>
#include <map>

namespace dlink {

namespace {

struct InputMercury {
  InputObject *obj = nullptr;
  std::vector<ElfSymbol> symbols;            // the input's .nv.merc.symtab
  std::vector<OutputSymbol *> sym_map;        // merc symbol index -> output symbol
  std::unordered_map<u32, u64> section_bias; // merc section index -> offset in output twin
  std::unordered_map<u32, u64> merged_section_symbol; // merc section symbol -> its offset
  // Lookups by name, made once (the linear ones were quadratic in the
  // number of functions): the first section of each name, and the indices
  // of the input's .symtab symbols of each name, in order.
  std::unordered_map<std::string_view, u32> section_named;
  std::unordered_map<std::string_view, std::vector<u32>> symbols_named;

  std::optional<u32> find_section(std::string_view name) const {
    auto it = section_named.find(name);
    return it == section_named.end() ? std::nullopt : std::optional<u32>(it->second);
  }
  const std::vector<u32> &symbols_of_name(std::string_view name) const {
    static const std::vector<u32> kNone;
    auto it = symbols_named.find(name);
    return it == symbols_named.end() ? kNone : it->second;
  }
};

class MercuryBuilder {
public:
  explicit MercuryBuilder(Context &ctx) : ctx_(ctx), ms_(mercury_state(ctx)) {
    ms_.symbol_slots.reserve(ctx.out.locals.size() + ctx.out.globals.size() + 1);
    ms_.copy_slots.reserve(ctx.out.sections.size() + 1);
  }

  void run() {
    for (InputObject *obj : ctx_.inputs)
      inputs_.push_back(read_input(*obj));
    for (InputMercury &in : inputs_)
      map_symbols(in);
    for (InputMercury &in : inputs_)
      map_undefined_symbols(in);
    // (-r: the kernels' `externsharedinstance` symbols, which no input
    // has, and the dynamic arrays that link defines, as in .symtab; an
    // array defined after its dynamic declaration too:
    // shared_dynamic_then_defined.)
    auto mirror = [&](OutputSymbol *sym) {
      MercurySymbol &view = ms_.symbol(sym);
      view.present = true;
      view.info = ElfSymbol::make_info(sym->bind, sym->type);
      view.other = sym->other;
      view.value = sym->value;
      view.size = sym->size;
    };
    for (const auto &[kernel, instance] : ctx_.out.dynamic_shared_instance)
      mirror(instance);
    if (relocatable_output(ctx_))
      for (const auto &[name, sym] : ctx_.out.extern_shared_by_name)
        if (is_dynamic_array(sym) || (sym->extern_shared && sym->dynamic_then_defined))
          mirror(sym);
    prepare_data_twins();
    build_code();
    build_debug_frame();
    build_line_tables();
    build_module_info();
    build_function_info();
    prepare_optimizer_banks();
    rewrite_dropped_copy_tables();
    rewrite_relocatable_copy_tables();
    prepare_header_index_banks();
    build_relocations();
    patch_capsules(ctx_);
    // Created in this order (measured with textures, __constant__ data,
    // initialised globals and sm_110's reserved shared memory together).
    build_data_twins(DataTwinGroup::UserConstants);
    add_header_index_banks();
    add_optimizer_banks();
    build_data_twins(DataTwinGroup::Others);
    ms_.symtab = create_merc(".nv.merc.symtab", SHT_CUDA_MERC_SYMTAB, SHF_CUDA_MERC, 8, kSymSize);
  }

private:
  InputMercury read_input(InputObject &obj) {
    InputMercury in;
    in.obj = &obj;
    for (const ElfSection &sec : obj.elf.sections)
      if (sec.type == SHT_CUDA_MERC_SYMTAB)
        in.symbols = read_symbols(obj.elf, sec);
    in.sym_map.assign(in.symbols.size(), nullptr);
    for (u32 k = 0; k < obj.elf.sections.size(); k++)
      in.section_named.try_emplace(obj.elf.sections[k].name, k);
    for (u32 j = 1; j < obj.symbols.size(); j++)
      in.symbols_named[obj.symbols[j].name].push_back(j);
    return in;
  }

  OutputSection *create_merc(std::string_view name, u32 type, u64 flags, u64 align,
                             u64 entsize = 0) {
    OutputSection *sec = new_section(ctx_, name, type, flags, align, entsize);
    ms_.add_copy(sec);
    sec->kind = SectionKind::Mercury;
    // Mercury sections get names in .shstrtab only.
    sec->create_seq = ctx_.out.next_seq++;
    sec->late = true;
    ctx_.out.sections.push_back(sec);
    ctx_.out.section_by_name.emplace(sec->name, sec);
    ctx_.out.shstrtab_names.push_back({sec->name, 0, sec});
    return sec;
  }

  InputMercury *mercury_of(const InputObject *obj) {
    if (by_object_.empty())
      for (InputMercury &in : inputs_)
        by_object_.emplace(in.obj, &in);
    auto it = by_object_.find(obj);
    return it == by_object_.end() ? nullptr : it->second;
  }

  // The output (SASS) section a Mercury section of an input mirrors.
  OutputSection *sass_twin_of(std::string_view merc_name) {
    if (merc_name.starts_with(".nv.capmerc"))
      return find_section(ctx_, merc_name.substr(11));
    if (merc_name == ".nv.merc.nv.constant.user")
      return find_section(ctx_, ".nv.constant3");
    if (merc_name.starts_with(".nv.merc"))
      return find_section(ctx_, merc_name.substr(8));
    return find_section(ctx_, merc_name);
  }

  void map_symbols(InputMercury &in) {
    const InputObject &obj = *in.obj;
    // (Symbols of one name and binding, such as the local functions of
    // several inputs in a relocatable link's output, pair in order: the n-th
    // Mercury one with the n-th SASS one; relocatable_two_stage_locals.)
    std::map<std::pair<std::string_view, u8>, size_t> seen;
    for (u32 k = 1; k < in.symbols.size(); k++) {
      const ElfSymbol &m = in.symbols[k];
      if (m.type() == STT_SECTION) {
        std::string_view name = m.name == ".nv.constant.user" ? ".nv.constant3" : m.name;
        if (OutputSection *sec = find_section(ctx_, name))
          in.sym_map[k] = sec->symbol;
        continue;
      }
      // The SASS symbols of this name and binding: the first, and how many.
      u32 first = 0, count = 0;
      for (u32 j : in.symbols_of_name(m.name))
        if (obj.symbols[j].bind() == m.bind() && j < obj.sym_map.size() && !count++)
          first = j;
      OutputSymbol *out = count ? obj.sym_map[first] : nullptr;
      if (count > 1) // (the order counted only for names held more than once)
        if (size_t nth = seen[{m.name, m.bind()}]++; nth > 0 && nth < count)
          for (u32 j : in.symbols_of_name(m.name))
            if (obj.symbols[j].bind() == m.bind() && j < obj.sym_map.size() && nth-- == 0) {
              out = obj.sym_map[j];
              break;
            }
      in.sym_map[k] = out;
      if (!out || out->is_section_symbol || m.shndx == SHN_UNDEF)
        continue;
      MercurySymbol &view = ms_.symbol(out);
      if (view.present || out->defined_in != &obj)
        continue; // (defined by another input's copy)
      view.present = true;
      bool reserved = out->name.starts_with(".nv.reservedSmem.");
      u8 type = reserved ? u8{STT_CUDA_VARIABLE} : m.type();
      view.info = ElfSymbol::make_info(out->bind, type);
      view.other = m.other;
      // (--preserve-relocs: a kernel's own __shared__ variable, STV_INTERNAL
      // in .symtab, is so here too; measured: preserve_relocs_basic.)
      if (ctx_.opts.preserve_relocs && out->bind == STB_LOCAL && out->section &&
          out->section->kind == SectionKind::Shared && (out->other & 3) == 1)
        view.other = static_cast<u8>((m.other & ~3) | 1);
      // Functions keep their Mercury value, reserved-shared variables show 0,
      // other variables their place in the merged data (measured).
      bool reserved_shared = out->section && out->section->kind == SectionKind::SharedReserved;
      // (-r: the variable's own value, 0x10 for sm_110's.)
      if (relocatable_output(ctx_))
        reserved_shared = false;
      view.value = m.type() == STT_FUNC ? m.value : reserved_shared ? 0 : out->value;
      // (A `.common` variable: the largest size of all inputs, as in .symtab.)
      view.size = m.shndx == SHN_COMMON ? out->size : m.size;
    }
  }

  // Symbols no input defines (Mercury view of the first reference).
  void map_undefined_symbols(InputMercury &in) {
    for (u32 k = 1; k < in.symbols.size(); k++) {
      OutputSymbol *out = in.sym_map[k];
      const ElfSymbol &m = in.symbols[k];
      if (!out || out->is_section_symbol || m.type() == STT_SECTION)
        continue;
      MercurySymbol &view = ms_.symbol(out);
      // (-g's extern __shared__ symbols are defined by no input: the first
      // reference gives their Mercury view.)
      if (view.present || (out->defined() && out->defined_in != in.obj && !out->debug_shared_symbol))
        continue;
      view.present = true;
      bool reserved = out->name.starts_with(".nv.reservedSmem.");
      // (-r: an undefined symbol's type as in .symtab, relocatable_link.h.)
      u8 type = reserved || (relocatable_output(ctx_) && !out->defined()) ? out->type : m.type();
      if (reserved)
        type = STT_CUDA_VARIABLE;
      view.info = ElfSymbol::make_info(out->bind, type);
      view.other = m.other;
      // (-g's __shared__ symbols: their laid-out offset, or a dynamic
      // array's start. -r: all ones for an undefined CUDA variable and for
      // .nv.ptx.const0.size, as in .symtab; the other undefined references,
      // .nv.reservedSmem.offset0 among them, keep the input's Mercury value.)
      // (A relocatable input's space-less references, CUDA variables there:
      // 0 whatever that input's Mercury value, as for ptxas's OBJECT ones.)
      bool all_ones = relocatable_output(ctx_) && !out->defined() &&
                      ((m.type() == STT_CUDA_VARIABLE && (out->other & 0xe0)) ||
                       out->internal_undefined_object);
      bool spaceless = relocatable_output(ctx_) && !out->defined() &&
                       m.type() == STT_CUDA_VARIABLE && !(out->other & 0xe0) &&
                       (reserved || out->name.starts_with("__UFT") || out->name.starts_with("__UDT"));
      view.value = out->debug_shared_symbol ? out->value
                   : all_ones               ? ~u64{0}
                   : spaceless              ? 0
                                            : m.value;
      view.size = out->debug_shared_symbol ? out->size : m.size;
      // (--preserve-relocs: STV_INTERNAL as in .symtab; shared_cross.)
      if (out->debug_shared_symbol && ctx_.opts.preserve_relocs && (out->other & 3) == 1)
        view.other = static_cast<u8>((m.other & ~3) | 1);
    }
  }

  const ElfSection *input_section(const InputObject &obj, std::string_view name) {
    return obj.elf.section_named(name);
  }

  // Code sections: .text.<f>, and (-r) a unified function's stub
  // .nv.uft.rel.<f>, which has a capsule too.
  static bool is_code(const OutputSection &sec) {
    return sec.kind == SectionKind::Text || sec.type == SHT_CUDA_UFT;
  }

  // One .nv.capmerc.<code section> per output function, in the code
  // sections' order (relocatable_unified at sm_100: a stub's capsule before
  // its function's).
  void build_code() {
    std::vector<OutputSection *> sections = ctx_.out.sections; // (create_merc appends)
    for (OutputSection *text : sections) {
      if (!is_code(*text) || text->removed || ms_.is_copy(text) || !text->func || !text->func->defined_in)
        continue;
      std::string name = ".nv.capmerc" + std::string(text->name);
      const ElfSection *in = input_section(*text->func->defined_in, name);
      if (!in)
        continue;
      OutputSection *sec = create_merc(name, SHT_CUDA_CAPMERC_TEXT, SHF_CUDA_MERC, in->addralign, in->entsize);
      ms_.set_twin(sec, text);
      sec->func = text->func;
      auto &replacements = ms_.capsule_replacement;
      if (auto r = replacements.find(text); r != replacements.end())
        sec->data = r->second; // release fences re-encoded (refinalize_fences.cpp)
      else
        sec->data.assign(in->data.begin(), in->data.end());
      sec->size = sec->data.size();
      ms_.symbol(text->func).section = sec;
    }
  }

  std::vector<OutputSection *> sass_sections(SectionKind kind) {
    std::vector<OutputSection *> out;
    for (OutputSection *sec : ctx_.out.sections)
      if (sec->kind == kind && !sec->removed && !ms_.is_copy(sec))
        out.push_back(sec);
    return out;
  }

  // Concatenation of the inputs' sections named `name`, as SASS data
  // sections are merged.
  OutputSection *concatenate(std::string_view name, OutputSection *twin) {
    OutputSection *sec = nullptr;
    for (InputMercury &in : inputs_) {
      auto idx = in.obj->elf.find_section(name);
      if (!idx)
        continue;
      const ElfSection &src = in.obj->elf.sections[*idx];
      if (!sec) {
        sec = create_merc(name, src.type, src.flags & ~u64(SHF_INFO_LINK), src.addralign,
                          src.entsize);
        ms_.set_twin(sec, twin);
      }
      u64 offset = align_to(sec->data.size(), std::max<u64>(src.addralign, 1));
      sec->data.resize(offset, 0);
      sec->data.insert(sec->data.end(), src.data.begin(), src.data.end());
      sec->size = sec->data.size();
      in.section_bias[*idx] = offset;
      // The section symbol of this input's part points at the merged twin.
      for (u32 k = 1; k < in.symbols.size(); k++)
        if (in.symbols[k].type() == STT_SECTION && in.symbols[k].shndx == *idx)
          in.merged_section_symbol[k] = offset;
    }
    return sec;
  }

  void build_debug_frame() {
    if (OutputSection *sec = concatenate(".nv.merc.debug_frame", find_section(ctx_, ".debug_frame")))
      for (OutputSymbol *s : {find_section(ctx_, ".debug_frame")->symbol})
        ms_.symbol(s).section = sec;
  }

  // -lineinfo: the twins of the other debug sections (.debug_line,
  // .debug_str, .nv_debug_line_sass, every .nv_debug_ptx_txt.<hash>), right
  // after .nv.merc.debug_frame in the SASS sections' order, each the
  // concatenation of the inputs' twins (measured: semantics-findings.md).
  // .nv.merc.debug_str and the PTX-text twins share their SASS section's
  // file bytes (elf.cpp assign_offsets).
  void build_line_tables() {
    for (OutputSection *sass : sass_sections(SectionKind::Debug)) {
      if (sass->name == ".debug_frame" || sass->name.starts_with(".nv_debug.shared"))
        continue;
      std::string name = ".nv.merc" + std::string(sass->name);
      if (OutputSection *sec = concatenate(name, sass))
        if (sass->symbol)
          ms_.symbol(sass->symbol).section = sec;
    }
  }

  void build_module_info() {
    OutputSection *sass = find_section(ctx_, ".nv.info");
    if (!sass || sass->records.empty())
      return; // no code: the SASS .nv.info is dropped too
    OutputSection *sec = create_merc(".nv.merc.nv.info", SHT_CUDA_MERC_INFO, SHF_CUDA_MERC, 4);
    ms_.set_twin(sec, sass);
    sec->records = sass->records;
  }

  InfoRecord convert(const EiRecord &r, const InputMercury &in) {
    return to_output_record(r, [&](u32 k) { return k < in.sym_map.size() ? in.sym_map[k] : nullptr; });
  }

  // The functions' .nv.merc.nv.info.<f>, and (-r) the unified entry
  // tables' twins among them, in the SASS sections' order.
  void build_function_info() {
    std::vector<OutputSection *> sections = ctx_.out.sections; // (create_merc appends)
    for (OutputSection *info : sections) {
      if (info->removed || ms_.is_copy(info))
        continue;
      if (info->type == SHT_CUDA_UFT_ENTRY || info->type == SHT_CUDA_UDT_ENTRY) {
        build_unified_entries(info);
        continue;
      }
      if (info->kind != SectionKind::FunctionInfo || !info->func || !info->func->defined_in)
        continue;
      std::string name = ".nv.merc" + std::string(info->name);
      InputMercury *in = input_of(info->func->defined_in);
      const ElfSection *src = input_section(*info->func->defined_in, name);
      if (!in || !src)
        continue;
      OutputSection *sec =
          create_merc(name, SHT_CUDA_MERC_INFO, SHF_CUDA_MERC | SHF_INFO_LINK, src->addralign);
      ms_.set_twin(sec, info);
      sec->func = info->func;
      // EXTERNS mirrors the SASS section's final record (same list, same
      // place: in position, or moved to the end).
      const InfoRecord *sass_externs = nullptr;
      for (const InfoRecord &r : info->records)
        if (r.attr == EIATTR_EXTERNS)
          sass_externs = &r;
      std::vector<EiRecord> recs = parse_eiattrs(src->data);
      for (auto it = recs.rbegin(); it != recs.rend(); ++it) {
        InfoRecord r = convert(*it, *in);
        if (r.attr == EIATTR_EXTERNS) {
          if (!sass_externs || sass_externs->moved_to_end)
            continue;
          r.syms = sass_externs->syms;
          r.payload.assign(4 * r.syms.size(), 0);
        }
        sec->records.push_back(std::move(r));
      }
      // Records the link adds to a kernel (the named barriers it reaches, a
      // recursive kernel's unknown call-return stack size) go last; where
      // the input has them, they take the link's value.
      // (In the SASS records' order: CRS_STACK_SIZE before an added
      // NUM_BARRIERS.)
      // An EXTERNS the link created for a kernel that had none comes among
      // them, in the SASS records' order.
      for (const InfoRecord &sass : info->records) {
        if (sass.attr == EIATTR_EXTERNS && sass.added) {
          sec->records.push_back(sass);
          continue;
        }
        if (sass.attr != EIATTR_NUM_BARRIERS && sass.attr != EIATTR_CRS_STACK_SIZE)
          continue;
        auto merc = std::find_if(sec->records.begin(), sec->records.end(),
                                 [&](const InfoRecord &r) { return r.attr == sass.attr; });
        if (merc == sec->records.end()) {
          sec->records.push_back(sass);
        } else {
          merc->value = sass.value;
          merc->payload = sass.payload;
        }
      }
      // A moved EXTERNS comes after them (as in the SASS section).
      if (sass_externs && sass_externs->moved_to_end)
        sec->records.push_back(*sass_externs);
    }
  }

  // -r: .nv.merc.nv.uft.entry/.nv.merc.nv.udt.entry, where an input has
  // one: the SASS table's entries, whose symbols are written with their
  // Mercury indices (patch_mercury_sections; relocatable_unified: the
  // inputs' Mercury tables hold the SASS entries).
  void build_unified_entries(OutputSection *sass) {
    std::string name = ".nv.merc" + std::string(sass->name);
    bool in_inputs = std::any_of(inputs_.begin(), inputs_.end(), [&](const InputMercury &in) {
      return in.obj->elf.find_section(name).has_value();
    });
    if (!in_inputs)
      return;
    OutputSection *sec = create_merc(name, sass->type, SHF_CUDA_MERC, sass->align, sass->entsize);
    ms_.set_twin(sec, sass);
    sec->data = sass->data;
    sec->size = sec->data.size();
    if (sass->symbol)
      ms_.symbol(sass->symbol).section = sec;
  }

  // Whether Mercury symbol `k` of an input names a weak function copy whose
  // debug records are dropped.
  bool dropped_copy(const InputMercury &in, u32 k) {
    if (k == 0 || k >= in.symbols.size())
      return false;
    const InputObject &obj = *in.obj;
    for (u32 j : in.symbols_of_name(in.symbols[k].name))
      if (j < obj.dropped_debug_copies.size())
        return obj.dropped_debug_copies[j];
    return false;
  }

  InputMercury *input_of(const InputObject *obj) {
    for (InputMercury &in : inputs_)
      if (in.obj == obj)
        return &in;
    return nullptr;
  }

  // The output Mercury section an input Mercury section of name `name`
  // went to.
  OutputSection *merc_output(std::string_view name) {
    OutputSection **sec = ctx_.out.section_by_name.find(name);
    return sec && ms_.is_copy(*sec) ? *sec : nullptr;
  }

  // The capsule of the function in SASS section `text`; by name when the
  // section has no function.
  // (The Mercury sections of each function, in creation order, are indexed
  // at the first call: capsules all exist by then, and the sections made
  // afterwards have no function.)
  OutputSection *capsule_of(const OutputSection &text) {
    std::string name = ".nv.capmerc" + std::string(text.name);
    if (text.func) {
      if (merc_by_func_.empty())
        for (OutputSection *sec : ctx_.out.sections)
          if (ms_.is_copy(sec) && sec->func)
            merc_by_func_[sec->func].push_back(sec);
      if (auto it = merc_by_func_.find(text.func); it != merc_by_func_.end())
        for (OutputSection *sec : it->second)
          if (sec->name == name)
            return sec;
    }
    return merc_output(name);
  }

  void build_relocations() {
    // Twins of the SASS relocation sections, in their order; a twin exists
    // only if some of its relocations survive.
    std::vector<std::string> names;
    std::vector<OutputSection *> optimizer_targets;
    std::vector<const OutputSection *> sass_targets;
    for (OutputSection *rel : ctx_.out.sections)
      if (rel->kind == SectionKind::Reloc && !ms_.is_copy(rel) && rel->rela && !rel->resolved_rela && rel->target &&
          !rel->removed) {
        // (The user bank's twin keeps the bank's Mercury name.)
        names.push_back(".nv.merc.rela" + std::string(rel->target->renamed_from == ".nv.constant.user"
                                                          ? rel->target->renamed_from
                                                          : rel->target->name));
        sass_targets.push_back(rel->target);
        optimizer_targets.push_back(rel->target->renamed_from.starts_with(".nv.constant.optimizer.") ||
                                            rel->target->renamed_from.starts_with(
                                                ".nv.constant.entry_image_header_indices.")
                                        ? rel->target
                                        : nullptr);
      }

    // (The twins of the banks' relocation sections, optimizer constants and
    // header-index slots, are made in the same order.)
    for (size_t n = 0; n < names.size(); n++) {
      const std::string &name = names[n];
      if (OutputSection *bank = optimizer_targets[n]) {
        if (bank->renamed_from.starts_with(".nv.constant.optimizer."))
          build_optimizer_relocations(bank);
        else
          build_header_index_relocations(bank);
        continue;
      }
      std::string_view target_sass = std::string_view(name).substr(13); // ".text.f"...
      bool code = is_code(*sass_targets[n]);
      std::string target_name = code ? ".nv.capmerc" + std::string(target_sass)
                                     : ".nv.merc" + std::string(target_sass);
      // A function's capsule is the one of its own SASS section: local
      // functions of one name in several inputs (`static` helpers) each
      // have theirs, under the same name.
      OutputSection *target = code ? capsule_of(*sass_targets[n]) : merc_output(target_name);
      if (!target)
        target = pending_twin(target_name);
      if (!target)
        continue;
      // Collected into a scratch section, created only if not empty.
      OutputSection scratch;
      scratch.kind = SectionKind::Reloc;
      scratch.rela = true;
      scratch.target = target;
      // Code relocations belong to the input that defines the function
      // (add_relocs checks it too): only that input is searched.
      if (target->func && target->func->defined_in) {
        if (InputMercury *in = mercury_of(target->func->defined_in))
          add_relocs(*in, name, target, scratch);
      } else {
        for (InputMercury &in : inputs_)
          add_relocs(in, name, target, scratch);
      }
      std::reverse(scratch.relocs.begin(), scratch.relocs.end());
      ms_.add_copy(&scratch); // (the engine's Mercury rules)
      std::vector<OutputReloc> resolved; // (--preserve-relocs)
      apply_relocation_section(ctx_, &scratch, &resolved);
      ms_.remove_copy(&scratch);
      if (scratch.relocs.empty())
        continue;
      OutputSection *rel =
          create_merc(name, SHT_CUDA_MERC_RELA, SHF_CUDA_MERC | SHF_INFO_LINK, 8, kRelaSize);
      rel->kind = SectionKind::Reloc;
      rel->rela = true;
      rel->target = target;
      rel->relocs = std::move(scratch.relocs);
      // --preserve-relocs: the resolved ones right after (measured:
      // preserve_relocs_basic, sm_100: .nv.merc.nv.resolvedrela.text.<f>).
      if (!resolved.empty()) {
        OutputSection *kept = create_merc(".nv.merc.nv.resolvedrela" + name.substr(13),
                                          SHT_CUDA_MERC_RESOLVED_RELA, SHF_CUDA_MERC | SHF_INFO_LINK, 8,
                                          kRelaSize);
        kept->kind = SectionKind::Reloc;
        kept->rela = true;
        kept->resolved_rela = true;
        kept->target = target;
        kept->relocs = std::move(resolved);
      }
    }
  }

  void add_relocs(InputMercury &in, const std::string &name, OutputSection *target,
                  OutputSection &rel) {
    const InputObject &obj = *in.obj;
    auto idx = in.find_section(name);
    if (!idx)
      return;
    const ElfSection &src = obj.elf.sections[*idx];
    // Code relocations belong to the input that defines the function.
    if (target->func && target->func->defined_in != &obj)
      return;
    u64 base = 0;
    if (auto it = in.section_bias.find(src.info); it != in.section_bias.end())
      base = it->second;
    // Data twins share the SASS section's layout: this input's part starts
    // where its SASS section went.
    std::optional<u32> sass_index;
    if (ms_.shares_twin_bytes(target) && ms_.twin(target))
      sass_index = obj.elf.find_section(ms_.twin(target)->renamed_from.empty()
                                            ? ms_.twin(target)->name
                                            : std::string_view(".nv.constant3"));
    if (sass_index && *sass_index < obj.sec_off.size())
      base = obj.sec_off[*sass_index];
    const std::vector<std::pair<u64, u64>> *dropped = nullptr;
    if (sass_index)
      if (auto it = obj.dropped_ranges.find(*sass_index); it != obj.dropped_ranges.end())
        dropped = &it->second;
    for (const ElfReloc &r : read_relocs(src)) {
      OutputSymbol *sym = r.sym < in.sym_map.size() ? in.sym_map[r.sym] : nullptr;
      // Debug records of a dropped weak copy go (as in the SASS world,
      // .debug_info's excepted).
      if (!(src.flags & SHF_ALLOC) && target->type != SHT_CUDA_CAPMERC_TEXT &&
          !keeps_weak_copy_relocs(target->name) && dropped_copy(in, r.sym))
        continue;
      // References to texture header-index slots are resolved into the
      // capsule (patch_capsules) and dropped.
      if (auto slot = sym ? ctx_.out.texture_slot.find(sym) : ctx_.out.texture_slot.end();
          slot != ctx_.out.texture_slot.end()) {
        if (target->type != SHT_CUDA_CAPMERC_TEXT ||
            (r.type != kMercuryRelocBase + 0x03 && r.type != kMercuryRelocBase + 0x04))
          ctx_.diag.fatal(fmt::format("unsupported Mercury relocation against '{}' in section '{}'",
                                      sym->name, name));
        MercuryState::CapsuleValue v;
        v.offset = r.offset;
        v.sym = sym;
        v.addend = r.addend;
        v.type = r.type;
        v.value = slot->second - ctx_.out.texture_slot_base + static_cast<u64>(r.addend);
        v.header_index = true;
        ms_.capsule_values[target].push_back(v);
        continue;
      }
      // (-r: a kernel's references to a dynamic shared array are kept
      // against its `externsharedinstance`, as in the SASS world.)
      if (relocatable_output(ctx_) && sym && ms_.is_copy(target) && ms_.twin(target) &&
          ms_.twin(target)->func)
        if (auto it = ctx_.out.dynamic_shared_instance.find(ms_.twin(target)->func);
            it != ctx_.out.dynamic_shared_instance.end() && is_dynamic_array(sym))
          sym = it->second;
      bool clear = r.type == kMercuryRelocBase + 0x0e;
      if (r.sym && !sym && !clear)
        continue; // reference to a removed function
      if (dropped && std::any_of(dropped->begin(), dropped->end(), [&](const auto &rg) {
            return r.offset >= rg.first && r.offset < rg.second;
          }))
        continue; // inside a weak variable whose definition lost
      OutputReloc o;
      o.offset = r.offset + base;
      o.sym = sym;
      o.type = r.type;
      o.addend = r.addend;
      if (auto it = in.merged_section_symbol.find(r.sym); it != in.merged_section_symbol.end())
        o.bias = it->second;
      rel.relocs.push_back(o);
    }
  }

  // The Mercury side of the kernels' header-index slots: per kernel a
  // relocation section (build_relocations, in SASS order), then per kernel the
  // slots alone (zeros), named after the bank's creation name; the bank's
  // section symbol shows them.
  void prepare_header_index_banks() {
    std::vector<OutputSection *> &banks = header_index_banks_;
    for (const auto &hb : ctx_.out.header_index_banks) {
      std::string name = ".nv.merc" + std::string(hb.bank->renamed_from);
      u64 size = hb.bank->size - ctx_.out.texture_slot_base;
      OutputSection *bank = new_section(ctx_, name, SHT_CUDA_CONSTANT + 0x15,
                                        SHF_CUDA_MERC | SHF_ALLOC | SHF_INFO_LINK, 4);
      ms_.add_copy(bank);
      bank->kind = SectionKind::Mercury;
      bank->func = hb.kernel;
      bank->data.assign(size, 0);
      bank->size = size;
      ms_.symbol(hb.bank->symbol).section = bank;
      banks.push_back(bank);
    }
  }

  void build_header_index_relocations(OutputSection *sass_bank) {
    for (const auto &hb : ctx_.out.header_index_banks) {
      if (hb.bank != sass_bank)
        continue;
      OutputSection *bank = ms_.symbol(sass_bank->symbol).section;
      OutputSection *rel = create_merc(".nv.merc.rela" + std::string(hb.bank->renamed_from),
                                       SHT_CUDA_MERC_RELA, SHF_CUDA_MERC | SHF_INFO_LINK, 8, kRelaSize);
      rel->kind = SectionKind::Reloc;
      rel->rela = true;
      rel->target = bank;
      for (const OutputReloc &r : hb.rela->relocs) {
        OutputReloc m = r;
        m.offset = r.offset - ctx_.out.texture_slot_base;
        m.type = r.sym->type == STT_CUDA_TEXTURE   ? kMercuryRelocBase + 0x0b
                 : r.sym->type == STT_CUDA_SAMPLER ? kMercuryRelocBase + 0x0c
                                                   : kMercuryRelocBase + 0x0d;
        rel->relocs.push_back(m);
      }
    }
  }

  // The Mercury side of the kernels' optimizer constant banks (§16): per
  // kernel a relocation section (made by build_relocations in the order of
  // the SASS relocation sections), then per kernel the bank, zeros of the
  // SASS bank's size (added after the header-index banks). The relocations
  // are the jump-table entries: the kernel's own, then function by function
  // in bank layout order at the function's base (build_optimizer_relocations).
  void prepare_optimizer_banks() {
    for (const auto &ob : ctx_.out.optimizer_banks) {
      std::string_view merc_name = ob.bank->renamed_from; // ".nv.constant.optimizer.<k>"
      OutputSection *bank = new_section(ctx_, ".nv.merc" + std::string(merc_name), 0x70000084,
                                        SHF_CUDA_MERC | SHF_ALLOC | SHF_INFO_LINK, ob.bank->align);
      ms_.add_copy(bank);
      bank->kind = SectionKind::Mercury;
      bank->func = ob.kernel ? ob.kernel : kernel_named(ob.final_name.substr(14));
      bank->data.assign(ob.bank->size, 0);
      bank->size = ob.bank->size;
      ms_.set_twin(bank, ob.bank);
      ms_.symbol(ob.bank->symbol).section = bank;
      optimizer_banks_.push_back(bank);
    }
  }

  // A dropped weak copy's jump tables in the kernels' banks: each entry
  // takes the SASS value the kept copy has for the same Mercury target, 0
  // when the kept copy has no such target (probes: identical copies keep
  // their values; a copy with other code gets zeros).
  void rewrite_dropped_copy_tables() {
    const auto &placed = ctx_.out.placed_function_banks;
    // Copies merged after the kept one first, then those it superseded
    // (sharing its place), last first, so that the first definer's entries
    // stay (probe a2:c1:b0 on sm_120), then the passed-over ones, which
    // overwrite a later dropped copy placed at the same offset (probe
    // a2:c2:b0:d0).
    std::vector<const std::pair<OutputSection *, std::vector<OutputSection *>> *> order;
    for (const auto &p : placed)
      if (p.first->lost_copy && !p.first->superseded_copy)
        order.push_back(&p);
    for (size_t i = placed.size(); i-- > 0;)
      if (placed[i].first->superseded_copy && !placed[i].first->passed_over)
        order.push_back(&placed[i]);
    for (const auto &p : placed)
      if (p.first->passed_over)
        order.push_back(&p);
    for (const auto *entry : order) {
      const OutputSection *lost = entry->first;
      const std::vector<OutputSection *> &targets = entry->second;
      const OutputSection *kept = nullptr;
      for (const auto &[other, t] : placed)
        if (!other->lost_copy && other->name == lost->name && !other->bank_local && !lost->bank_local)
          kept = other;
      if (!kept)
        continue;
      std::vector<ElfReloc> kept_relocs = table_relocs(*kept), lost_relocs = table_relocs(*lost);
      for (OutputSection *bank : targets)
        rewrite_copy_entries(kept_relocs, kept->data, lost_relocs, lost->data.size(), lost->base, *bank);
    }
  }

  std::vector<ElfReloc> table_relocs(const OutputSection &fbank) {
    return fbank.bank_input ? table_relocs(*fbank.bank_input, fbank.bank_function) : std::vector<ElfReloc>{};
  }

  static std::vector<ElfReloc> table_relocs(const InputObject &obj, std::string_view function) {
    auto idx = obj.elf.find_section(".nv.merc.rela.nv.constant.optimizer." + std::string(function));
    return idx ? read_relocs(obj.elf.sections[*idx]) : std::vector<ElfReloc>{};
  }

  // Each entry of a dropped copy's tables, at `base` in `bank`, takes the
  // kept copy's SASS value for the same Mercury target, 0 where it has none.
  static void rewrite_copy_entries(const std::vector<ElfReloc> &kept_relocs, std::span<const u8> kept_data,
                                   const std::vector<ElfReloc> &lost_relocs, u64 lost_size, u64 base,
                                   OutputSection &bank) {
    std::map<i64, u32> value_of; // the kept copy: Mercury target -> SASS entry
    for (const ElfReloc &r : kept_relocs)
      if (r.offset + 4 <= kept_data.size())
        value_of.emplace(r.addend, read_le<u32>(kept_data.data() + r.offset));
    for (const ElfReloc &r : lost_relocs) {
      if (r.offset + 4 > lost_size || base + r.offset + 4 > bank.data.size())
        continue;
      auto it = value_of.find(r.addend);
      write_le<u32>(bank.data.data() + base + r.offset, it == value_of.end() ? 0 : it->second);
    }
  }

  // -r: a weak function's own bank merged from several inputs
  // (ctx.out.relocatable_banks): as in the kernels' banks, the copies
  // appended after the kept one, then those that held the function before it
  // (sharing its place), last first, so that the first definer's entries
  // stay (relocatable_weak_banks: the place is zeros where the kept copy
  // replaced one with other code), then those passed over before it.
  void rewrite_relocatable_copy_tables() {
    for (const auto &[bank, fn, parts] : ctx_.out.relocatable_banks) {
      const OutputModel::BankPart *kept = nullptr;
      for (const auto &part : parts)
        if (part.role == OutputModel::BankPart::Role::Kept)
          kept = &part;
      if (!bank || !kept)
        continue;
      const ElfSection *kept_bank = kept->input->elf.section_named(".nv.constant2." + std::string(fn));
      if (!kept_bank)
        continue;
      std::vector<ElfReloc> kept_relocs = table_relocs(*kept->input, fn);
      std::vector<const OutputModel::BankPart *> order;
      for (const auto &part : parts)
        if (part.role == OutputModel::BankPart::Role::Appended)
          order.push_back(&part);
      for (size_t i = parts.size(); i-- > 0;)
        if (parts[i].role == OutputModel::BankPart::Role::Held)
          order.push_back(&parts[i]);
      for (const auto &part : parts)
        if (part.role == OutputModel::BankPart::Role::PassedOver)
          order.push_back(&part);
      for (const OutputModel::BankPart *part : order)
        if (const ElfSection *own = part->input->elf.section_named(".nv.constant2." + std::string(fn)))
          rewrite_copy_entries(kept_relocs, kept_bank->data, table_relocs(*part->input, fn), own->data.size(),
                               part->offset, *bank);
    }
  }

  OutputSymbol *kernel_named(std::string_view name) {
    if (OutputSymbol *sym = find_global(ctx_, name))
      return sym;
    for (OutputSymbol *sym : ctx_.out.locals)
      if (sym->name == name && sym->type == STT_FUNC && !sym->is_section_symbol)
        return sym;
    return nullptr;
  }

  // The relocations of a kernel's Mercury bank: the kernel's own jump tables
  // (a bank merged from its input), then the functions' in bank layout order.
  void build_optimizer_relocations(OutputSection *sass_bank) {
    OutputSection *bank = ms_.symbol(sass_bank->symbol).section;
    if (!bank)
      return;
    OutputSection scratch;
    // (-r: a weak function's copies, the last input's first, each at its
    // place, entries ascending: relocatable_weak_banks.)
    if (const auto *copies = ctx_.out.relocatable_bank(sass_bank)) {
      for (size_t i = copies->parts.size(); i-- > 0;)
        if (InputMercury *in = input_of(copies->parts[i].input))
          add_jump_table_relocs(*in, copies->function, copies->parts[i].offset, scratch, true);
    } else if (OutputSymbol *k = bank->func; k && k->defined_in)
      if (InputMercury *in = input_of(k->defined_in))
        add_jump_table_relocs(*in, k->name, 0, scratch, true); // (ascending: probe q1)
    // A function's copies (one per input that defines it) go last copy
    // first; a dropped weak copy's entries in plain ascending offset order
    // (probes with two and three copies of a weak template).
    const auto &placed = ctx_.out.placed_function_banks;
    auto same_group = [](const OutputSection *a, const OutputSection *b) {
      return a->name == b->name && a->bank_local == b->bank_local &&
             (!a->bank_local || a->bank_input == b->bank_input);
    };
    for (size_t g = 0; g < placed.size();) {
      size_t end = g + 1;
      while (end < placed.size() && same_group(placed[end].first, placed[g].first))
        end++;
      for (size_t i = end; i-- > g;) {
        const auto &[fbank, targets] = placed[i];
        if ((fbank->superseded_copy && !fbank->passed_over) ||
            std::find(targets.begin(), targets.end(), sass_bank) == targets.end())
          continue;
        auto input = [&](const OutputSection *b) {
          InputMercury *in = input_of(b->bank_input);
          if (!in)
            ctx_.diag.fatal(fmt::format("no input for the constant bank '{}'", b->name));
          return in;
        };
        // The kept copy and the copies it superseded (merged before it,
        // last first) share its place: table by table, last table first,
        // each copy's entries in ascending offset (probes a2:b0, a2:c1:b0).
        std::vector<const OutputSection *> copies{fbank};
        if (!fbank->lost_copy)
          for (size_t j = end; j-- > g;)
            if (placed[j].first->superseded_copy && !placed[j].first->passed_over)
              copies.push_back(placed[j].first);
        if (copies.size() == 1) {
          add_jump_table_relocs(*input(fbank), fbank->bank_function, fbank->base, scratch, fbank->lost_copy);
          continue;
        }
        size_t tables = 0;
        for (const OutputSection *c : copies)
          tables = std::max(tables, add_jump_table_relocs(*input(c), c->bank_function, c->base, scratch,
                                                          false, -2));
        for (size_t t = tables; t-- > 0;)
          for (const OutputSection *c : copies)
            add_jump_table_relocs(*input(c), c->bank_function, c->base, scratch, false, static_cast<int>(t));
      }
      g = end;
    }
    std::erase_if(scratch.relocs, [&](const OutputReloc &r) { return r.offset + 4 > sass_bank->size; });
    if (scratch.relocs.empty())
      return;
    OutputSection *rel = create_merc(".nv.merc.rela" + std::string(sass_bank->renamed_from),
                                     SHT_CUDA_MERC_RELA, SHF_CUDA_MERC | SHF_INFO_LINK, 8, kRelaSize);
    rel->kind = SectionKind::Reloc;
    rel->rela = true;
    rel->target = bank;
    rel->relocs = std::move(scratch.relocs);
  }

  // Adds the relocations of `function`'s jump tables (only table
  // `only_table` when >= 0, none when -2) and returns how many tables it has.
  size_t add_jump_table_relocs(InputMercury &input, std::string_view function, u64 base,
                               OutputSection &rel, bool ascending = false, int only_table = -1) {
    InputMercury *in = &input;
    std::string fn(function);
    const InputObject &obj = *in->obj;
    auto idx = obj.elf.find_section(".nv.merc.rela.nv.constant.optimizer." + fn);
    if (!idx)
      return 0;
    std::vector<ElfReloc> relocs = read_relocs(obj.elf.sections[*idx]);
    // The jump tables (their targets) of the function's Mercury records.
    std::vector<std::vector<u32>> tables;
    if (const ElfSection *info = input_section(obj, ".nv.merc.nv.info." + fn))
      for (const EiRecord &r : parse_eiattrs(info->data)) {
        if (r.attr != EIATTR_INDIRECT_BRANCH_TARGETS)
          continue;
        size_t n = r.payload.size() / 4;
        for (size_t i = 0; i + 3 <= n;) {
          u32 count = r.payload_u32(i + 2);
          std::vector<u32> targets;
          for (size_t j = 0; j < count && i + 3 + j < n; j++)
            targets.push_back(r.payload_u32(i + 3 + j));
          tables.push_back(std::move(targets));
          i += 3 + count;
        }
      }
    // The tables lie one after the other in the bank, in record order (4
    // bytes a target); each relocation is checked against its entry.
    std::vector<int> table_of(relocs.size(), -1);
    for (size_t k = 0; k < relocs.size(); k++) {
      u64 start = 0;
      for (size_t t = 0; t < tables.size(); t++) {
        u64 end = start + 4 * tables[t].size();
        if (relocs[k].offset >= start && relocs[k].offset < end && (relocs[k].offset - start) % 4 == 0 &&
            relocs[k].addend == static_cast<i64>(tables[t][(relocs[k].offset - start) / 4])) {
          table_of[k] = static_cast<int>(t);
          break;
        }
        start = end;
      }
      if (table_of[k] < 0)
        ctx_.diag.fatal(fmt::format("optimizer constant of '{}': dlink cannot place a relocation "
                                    "that is not a jump-table entry",
                                    fn));
    }
    // (A relocatable link's output, whose list nvlink wrote in ascending
    // order: nvlink copies it reversed, the last entry first; weak_later_banks
    // with one input linked by -r first. ptxas's lists, tables in ascending
    // order and each table's entries descending, come out as sorted below,
    // which is also their reverse.)
    std::vector<size_t> order(relocs.size());
    for (size_t k = 0; k < order.size(); k++)
      order[k] = obj.prelinked ? order.size() - 1 - k : k;
    if (!obj.prelinked)
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        if (table_of[a] != table_of[b] && !ascending)
          return table_of[a] > table_of[b];
        return relocs[a].offset < relocs[b].offset;
      });
    for (size_t k : order) {
      if (only_table != -1 && table_of[k] != only_table)
        continue;
      const ElfReloc &r = relocs[k];
      OutputReloc o;
      o.offset = r.offset + base;
      o.sym = r.sym < in->sym_map.size() ? in->sym_map[r.sym] : nullptr;
      o.type = r.type;
      o.addend = r.addend;
      if (!o.sym)
        ctx_.diag.fatal(fmt::format("optimizer constant of '{}': unknown symbol", fn));
      rel.relocs.push_back(o);
    }
    return tables.size();
  }

  // A section made earlier joins the output now (its creation order).
  void add_late_section(OutputSection *sec) {
    sec->create_seq = ctx_.out.next_seq++;
    sec->late = true;
    ctx_.out.sections.push_back(sec);
    ctx_.out.section_by_name.emplace(sec->name, sec);
    ctx_.out.shstrtab_names.push_back({sec->name, 0, sec});
  }

  void add_optimizer_banks() {
    for (OutputSection *bank : optimizer_banks_)
      add_late_section(bank);
  }

  // The banks themselves are created after .nv.merc.nv.constant.user and
  // before the other data twins.
  void add_header_index_banks() {
    for (OutputSection *bank : header_index_banks_)
      add_late_section(bank);
  }

  // Mercury copies of data sections share the SASS section's bytes. They
  // are made before the relocations that target them and created (named)
  // after them.
  struct DataTwin {
    std::string_view merc;
    std::string_view sass;
    u32 type;
    u64 flags;
    bool own_bytes = false; // the inputs' bytes, not the SASS twin's
    OutputSection *sec = nullptr;
  };
  std::vector<DataTwin> data_twins_ = {
      {".nv.merc.nv.constant.user", ".nv.constant3", 0x7000007c, SHF_CUDA_MERC | SHF_ALLOC},
      {".nv.merc.nv.global.init", ".nv.global.init", SHT_CUDA_GLOBAL_INIT,
       SHF_CUDA_MERC | SHF_ALLOC | SHF_WRITE},
      {".nv.merc.nv.shared.reserved.0", ".nv.shared.reserved.0", SHT_CUDA_SHARED_RESERVED,
       SHF_CUDA_MERC | SHF_ALLOC | SHF_WRITE, true},
      // (-r: the unified variables.)
      {".nv.merc.nv.udt", ".nv.udt", SHT_CUDA_UDT, SHF_CUDA_MERC | SHF_ALLOC | SHF_WRITE},
  };

  void prepare_data_twins() {
    for (DataTwin &t : data_twins_) {
      OutputSection *sass = find_section(ctx_, t.sass);
      if (!sass || sass->removed)
        continue;
      bool in_inputs = std::any_of(inputs_.begin(), inputs_.end(), [&](const InputMercury &in) {
        return in.obj->elf.find_section(t.merc).has_value();
      });
      if (!in_inputs)
        continue;
      t.sec = new_section(ctx_, t.merc, t.type, t.flags, sass->align);
      ms_.add_copy(t.sec);
      t.sec->stored_in_file = true; // (the reserved window's copy has bytes)
      t.sec->kind = SectionKind::Mercury;
      ms_.set_twin(t.sec, sass);
      ms_.symbol(sass->symbol).section = t.sec;
      if (t.own_bytes) {
        for (const InputMercury &in : inputs_)
          if (const ElfSection *src = in.obj->elf.section_named(t.merc)) {
            t.sec->data.assign(src->data.begin(), src->data.end());
            t.sec->align = std::max<u64>(src->addralign, 1);
            break;
          }
        t.sec->size = t.sec->data.size();
        continue;
      }
      ms_.set_shares_twin_bytes(t.sec);
      t.sec->size = sass->size;
    }
  }

  OutputSection *pending_twin(std::string_view name) {
    for (DataTwin &t : data_twins_)
      if (t.sec && t.merc == name)
        return t.sec;
    return nullptr;
  }

  enum class DataTwinGroup { UserConstants, Others };

  // (The others: .nv.merc.nv.global.init and .nv.merc.nv.udt in their SASS
  // twins' creation order, as the inputs brought them, then sm_110's
  // reserved window; -r of unified variables at sm_100 and sm_110.)
  void build_data_twins(DataTwinGroup group) {
    std::vector<OutputSection *> twins;
    for (DataTwin &t : data_twins_) {
      bool user_constants = t.merc == ".nv.merc.nv.constant.user";
      if (t.sec && user_constants == (group == DataTwinGroup::UserConstants))
        twins.push_back(t.sec);
    }
    auto key = [&](const OutputSection *sec) {
      return std::pair(sec->type == SHT_CUDA_SHARED_RESERVED, ms_.twin(sec)->create_seq);
    };
    std::stable_sort(twins.begin(), twins.end(),
                     [&](const OutputSection *a, const OutputSection *b) { return key(a) < key(b); });
    for (OutputSection *sec : twins)
      add_late_section(sec);
  }

  Context &ctx_;
  MercuryState &ms_;
  std::vector<InputMercury> inputs_;
  std::unordered_map<const InputObject *, InputMercury *> by_object_; // (mercury_of)
  std::unordered_map<const void *, std::vector<OutputSection *>> merc_by_func_; // (capsule_of)
  std::vector<OutputSection *> header_index_banks_; // Mercury copies, made before they are added
  std::vector<OutputSection *> optimizer_banks_;    // (the same for optimizer constant banks)
};

} // namespace

void build_mercury(Context &ctx) {
  if (!ctx.arch.is_mercury())
    return;
  MercuryBuilder(ctx).run();
}

} // namespace dlink
