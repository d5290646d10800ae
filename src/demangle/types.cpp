// The demangler's types and how they print (parser.h).
#include "parser.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

namespace dlink::demangler {

// ---- types ----

const Type *Parser::make(Type t) {
  types_.push_back(std::move(t));
  return &types_.back();
}

const Type *Parser::add(Type t) {
  const Type *p = make(std::move(t));
  subs_.push_back(p);
  return p;
}

const Type *Parser::named(std::string text, bool bare, std::string ident) {
  Type t;
  t.text = std::move(text);
  t.bare = bare;
  t.ident = std::move(ident);
  return make(std::move(t));
}

// S_ and S <seq-id> _ (entries of the table), or a std:: abbreviation.
const Type *Parser::substitution() {
  expect('S');
  for (const Abbreviation &a : kAbbreviations)
    if (consume(a.code))
      return named(a.text, true, a.ident);
  if (peek() >= 'a' && peek() <= 'z' && peek() != 't') {
    pos_++;
    return named("", true);
  }
  size_t i = seq_id('_');
  if (i >= subs_.size())
    fail();
  const Type *t = subs_[i];
  charge(t->text.size());
  // nvlink prints the entry again, so a pending skip drops its first "::".
  if (skip_separator_ && t->kind == Type::Kind::Named) {
    Type copy = *t;
    if (drop_separator(copy.text)) {
      skip_separator_ = false;
      return make(std::move(copy));
    }
  }
  return t;
}

// D <code>: the builtin and compound types of the D prefix.
const Type *Parser::d_type() {
  Type t;
  char d = peek(1);
  pos_ += 2;
  switch (d) {
  case 'h': return named("__fp16");
  case 'i': return named("char32_t");
  case 's': return named("char16_t");
  case 'u': return named("char8_t");
  case 'a': return named("auto");
  case 'c': return named("decltype(auto)");
  case 'n': return named("std::nullptr_t");
  case 'N': return named("__nullptr");
  case 'F': {
    if (consume("16b"))
      return named("std::bfloat16_t");
    std::string bits = digits();
    if (consume('x') && (bits == "32" || bits == "64"))
      return named("_Float" + bits + "x");
    if (consume('_') && (bits == "16" || bits == "32" || bits == "64" || bits == "128"))
      return named("_Float" + bits);
    fail();
  }
  case 'p':
    t.kind = Type::Kind::Pack;
    t.of = type();
    return add(std::move(t));
  case 't':
  case 'T': {
    std::string e = expression();
    expect('E');
    t.text = d == 't' ? "decltype(" + e + ")" : "decltype((" + e + "))";
    return add(std::move(t));
  }
  case 'v': { // GCC vector types, as EDG spells them
    std::string n = digits();
    expect('_');
    std::string element = print(type());
    t.text = element + " __attribute((vector_size(" + n + "*sizeof(" + element + ")))) ";
    return add(std::move(t));
  }
  case 'o':
    return function_type(" noexcept", true);
  case 'O': {
    std::string e = expression();
    expect('E');
    return function_type(" noexcept(" + e + ")", true);
  }
  default: fail();
  }
}

const Type *Parser::type() {
  Nest nest(depth_);
  char c = peek();
  if (const char *b = builtin_name(c)) {
    pos_++;
    return named(b);
  }
  Type t;
  switch (c) {
  case 'u': { // vendor extended type
    pos_++;
    Name n = identifier();
    if (n.hidden)
      skip_separator_ = true; // see nested_name()
    t.text = n.text;
    if (peek() == 'I')
      t.text += template_args();
    return add(std::move(t));
  }
  case 'D':
    return d_type();
  case 'r':
  case 'V':
  case 'K': {
    t.cv = cv_qualifiers();
    t.kind = Type::Kind::Qualified;
    // nvlink records a function type qualified in place (KFvvE) only
    // unqualified.
    bool in_place = peek() == 'F' || (peek() == 'D' && (peek(1) == 'o' || peek(1) == 'O'));
    t.of = type();
    if (in_place && t.of->kind == Type::Kind::Function)
      return make(std::move(t));
    return add(std::move(t));
  }
  case 'P':
  case 'R':
  case 'O':
  case 'C':
    pos_++;
    t.kind = c == 'P' ? Type::Kind::Pointer : c == 'R' ? Type::Kind::LRef : c == 'O' ? Type::Kind::RRef : Type::Kind::Complex;
    t.of = type();
    return add(std::move(t));
  case 'U': { // vendor qualifier
    pos_++;
    t.kind = Type::Kind::Vendor;
    t.text = source_name();
    t.of = type();
    return add(std::move(t));
  }
  case 'F':
    return function_type("");
  case 'A': {
    pos_++;
    t.kind = Type::Kind::Array;
    if (peek() >= '0' && peek() <= '9')
      t.text = digits();
    else if (peek() != '_')
      t.text = expression();
    expect('_');
    t.of = type();
    return add(std::move(t));
  }
  case 'M': {
    pos_++;
    // nvlink prints the class apart: a "::" due there uses up a pending
    // skip but stays, and a skip the class leaves drops its first "::".
    bool pending = std::exchange(skip_separator_, false);
    size_t separators = separators_;
    t.kind = Type::Kind::MemberPtr;
    t.text = print(type());
    if (skip_separator_ && drop_separator(t.text))
      skip_separator_ = false;
    skip_separator_ = skip_separator_ || (pending && separators_ == separators);
    t.of = type();
    return add(std::move(t));
  }
  case 'T': {
    // Template parameters print by position: T_ is T1, T0_ is T2.
    pos_++;
    t.text = "T" + std::to_string(index('_') + 1);
    t.bare = t.template_name = peek() == 'I'; // a template template parameter
    const Type *param = add(std::move(t));
    if (peek() != 'I')
      return param;
    Type applied; // a template template parameter with its arguments
    applied.text = param->text + template_args();
    return add(std::move(applied));
  }
  case 'S': {
    if (peek(1) == 't') {
      t.text = name(false).text;
      return add(std::move(t));
    }
    const Type *s = substitution();
    if (peek() != 'I') {
      if (s->needs_args)
        fail();
      return s;
    }
    // A template name from the table or an abbreviation, with arguments.
    t.text = print(s) + (s->bare ? "" : " ") + template_args();
    t.bare = true;
    return add(std::move(t));
  }
  case 'N':
  case 'Z':
  default: {
    if (c != 'N' && c != 'Z' && (c < '0' || c > '9'))
      fail();
    t.text = name(false).text;
    return add(std::move(t));
  }
  }
}

// F [Y] <return type> <parameter types> [<ref-qualifier>] E
// After an exception specification nvlink takes any character for the F.
const Type *Parser::function_type(std::string exception_spec, bool any_lead) {
  if (eof() || (!any_lead && peek() != 'F'))
    fail();
  pos_++;
  consume('Y'); // extern "C"
  Type t;
  t.kind = Type::Kind::Function;
  t.of = type();
  for (bool last = false;;) {
    if ((peek() == 'R' || peek() == 'O') && peek(1) == 'E') {
      t.text = peek() == 'R' ? " &" : " &&";
      pos_ += 2;
      break;
    }
    if (consume('E'))
      break;
    if (last)
      fail();
    last = ellipsis(t.params);
    if (!last)
      t.params.push_back(type());
  }
  if (t.params.empty())
    fail();
  t.exception = std::move(exception_spec);
  return add(std::move(t));
}

// ---- printing ----

namespace {

bool groups(const Type *t) {
  while (t->kind == Type::Kind::Qualified)
    t = t->of;
  return t->kind == Type::Kind::Function || t->kind == Type::Kind::Array;
}

bool is_declarator(const Type *t) {
  switch (t->kind) {
  case Type::Kind::Pointer:
  case Type::Kind::LRef:
  case Type::Kind::RRef:
  case Type::Kind::MemberPtr:
  case Type::Kind::Complex:
  case Type::Kind::Vendor: return true;
  default: return false;
  }
}

} // namespace

std::string Parser::declarator(const Type *of, const std::string &op, const std::string &inner) {
  if (groups(of))
    return print(of, "(" + op + inner + ")");
  return print(of, op + inner);
}

std::string Parser::print_function(const Type *f, const std::string &inner, unsigned cv) {
  return print(f->of, inner + "(" + parameters(f->params) + ")" + cv_suffix(cv) + f->text) + f->exception;
}

std::string Parser::print(const Type *t, const std::string &inner, Sep sep) {
  Nest nest(print_depth_);
  std::string s;
  switch (t->kind) {
  case Type::Kind::Named:
    s = t->text;
    if (sep == Sep::Attached)
      s += inner;
    else if (!inner.empty() || sep == Sep::Declared)
      s += (t->bare ? "" : " ") + inner;
    break;
  case Type::Kind::Pointer: s = declarator(t->of, "*", inner); break;
  case Type::Kind::LRef: s = declarator(t->of, "&", inner); break;
  case Type::Kind::RRef: s = declarator(t->of, "&&", inner); break;
  case Type::Kind::MemberPtr: s = declarator(t->of, " :: " + t->text + "::*", inner); break;
  case Type::Kind::Function: s = print_function(t, inner, 0); break;
  case Type::Kind::Array: s = print(t->of, inner + "[" + t->text + "]"); break;
  case Type::Kind::Complex: // a declarator without an operator
    s = "_Complex " + (groups(t->of) ? print(t->of, "(" + inner + ")") : print(t->of, inner, Sep::Declared));
    break;
  case Type::Kind::Vendor: s = declarator(t->of, t->text, inner); break;
  case Type::Kind::Pack:
    // "..." goes where the declarator would ("T1...", "int *...",
    // "int ...[6]"); the pack then takes declarators like a name.
    s = print(t->of, "...", Sep::Attached);
    if (!inner.empty() || sep == Sep::Declared)
      s += (sep == Sep::Attached ? "" : " ") + inner;
    break;
  case Type::Kind::Qualified: {
    unsigned cv = t->cv;
    const Type *of = t->of;
    for (; of->kind == Type::Kind::Qualified; of = of->of)
      cv |= of->cv;
    if (of->kind == Type::Kind::Function)
      s = print_function(of, inner, cv);
    else if (of->kind == Type::Kind::Array || of->template_name) // nvlink drops these qualifiers
      s = print(of, inner);
    else if (is_declarator(of))
      s = print(of, cv_text(cv) + " " + inner);
    else
      s = cv_text(cv) + " " + print(of, inner, sep);
    break;
  }
  }
  charge(s.size());
  return s;
}

} // namespace dlink::demangler
