// The demangler's lexical pieces, encodings and names (parser.h).
#include "parser.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

namespace dlink::demangler {

// ---- lexical pieces ----

std::string Parser::digits() {
  size_t start = pos_;
  while (peek() >= '0' && peek() <= '9')
    pos_++;
  if (pos_ == start)
    fail();
  return std::string(s_.substr(start, pos_ - start));
}

size_t Parser::count() {
  std::string d = digits();
  if (d.size() > 18)
    fail();
  return static_cast<size_t>(std::stoull(d));
}

// [r] [V] [K], in any order.
unsigned Parser::cv_qualifiers() {
  unsigned cv = 0;
  for (;; pos_++) {
    if (peek() == 'r')
      cv |= kRestrict;
    else if (peek() == 'V')
      cv |= kVolatile;
    else if (peek() == 'K')
      cv |= kConst;
    else
      return cv;
  }
}

// <number> ::= [n] <digits>, as printed: "-8".
std::string Parser::number() {
  std::string s = consume('n') ? "-" : "";
  s += digits();
  return s;
}

// <seq-id> <end>, or just <end>: 0 for none, n + 1 for seq-id n. nvlink
// computes in 32 bits, wrapping around.
size_t Parser::seq_id(char end) {
  if (consume(end))
    return 0;
  uint32_t v = 0;
  while (peek() != end) {
    char c = peek();
    int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : -1;
    if (d < 0)
      fail();
    v = v * 36 + static_cast<uint32_t>(d);
    pos_++;
  }
  pos_++;
  return static_cast<uint32_t>(v + 1);
}

std::string Parser::source_name() {
  size_t n = count();
  if (n == 0 || n > s_.size() - pos_)
    fail();
  std::string id(s_.substr(pos_, n));
  pos_ += n;
  return id;
}

// [<number>] <end>: 0 for none, n + 1 for n.
size_t Parser::index(char end) {
  if (consume(end))
    return 0;
  size_t n = count();
  expect(end);
  return n + 1;
}

// <discriminator> ::= _ <digit> | __ <number> _, as the instance number
// nvlink prints (the first entity has none and is instance 1).
size_t Parser::discriminator() {
  if (!consume('_'))
    return 0;
  if (consume('_')) {
    size_t n = count();
    expect('_');
    return n + 2;
  }
  if (peek() < '0' || peek() > '9')
    fail();
  return static_cast<size_t>(s_[pos_++] - '0') + 2;
}

// ---- encodings ----

std::string Parser::mangled_name() {
  if (!consume("_Z") || s_.find_first_of("\x01\x02") != std::string_view::npos)
    fail();
  Encoding e = encoding();
  strip_marks(e.head);
  strip_marks(e.tail);
  if (eof())
    return e.head + e.tail;
  // A '$' suffix after a function: digits are dropped, anything else is
  // shown as a clone.
  if (peek() != '$' || !e.function)
    fail();
  std::string_view rest = s_.substr(pos_ + 1);
  bool numeric = !rest.empty() && rest.find_first_not_of("0123456789") == std::string_view::npos;
  if (numeric)
    return e.head + e.tail;
  if (!rest.empty() && rest[0] >= '0' && rest[0] <= '9')
    fail();
  return "[clone " + e.head + "] " + std::string(rest) + e.tail;
}

Encoding Parser::encoding() {
  Nest nest(depth_);
  if (peek() == 'T' || peek() == 'G')
    return special_name();
  Encoding e = plain_encoding();
  // A hidden component whose "::" is still to be dropped drops the very
  // first one instead, if it was printed (see nested_name()).
  if (skip_separator_ && drop_separator(e.head, true))
    skip_separator_ = false;
  return e;
}

Encoding Parser::plain_encoding() {
  Encoding e;
  e.name = name();
  if (eof() || peek() == 'E' || peek() == '$') {
    e.head = e.name.text;
    e.tail = e.name.kind;
    return e;
  }
  e.function = true;
  std::string ret;
  if (e.name.template_args && !e.name.no_return) {
    ret = print(type()) + " ";
    strip_marks(ret); // printed apart: its separators never get dropped
  }
  std::vector<const Type *> params;
  while (!eof() && peek() != 'E' && peek() != '$' && !ellipsis(params))
    params.push_back(type());
  if (params.empty())
    fail();
  e.head = ret + e.name.text + "(" + parameters(params) + ")";
  e.tail = e.name.quals + e.name.kind;
  return e;
}

// z: "...", which can only end a parameter list; the caller checks that it
// does.
bool Parser::ellipsis(std::vector<const Type *> &params) {
  if (!consume('z'))
    return false;
  params.push_back(named("..."));
  return true;
}

// A lone void is an empty list; void among others prints as void.
std::string Parser::parameters(const std::vector<const Type *> &types) {
  if (types.size() == 1 && types[0]->kind == Type::Kind::Named && types[0]->text == "void")
    return "";
  std::vector<std::string> items;
  for (const Type *t : types)
    items.push_back(print(t));
  return join(items);
}

Encoding Parser::special_name() {
  Encoding e;
  auto for_type = [&](const char *what) {
    e.head = what + print(type());
    return e;
  };
  auto for_name = [&](const char *what) {
    e.head = what + name().text;
    return e;
  };
  auto thunk = [&](std::string what) {
    Encoding inner = encoding();
    inner.head = what + " " + inner.head;
    return inner;
  };
  if (consume("TV"))
    return for_type("Virtual function table for ");
  if (consume("TA")) {
    e.head = "template parameter object for " + template_arg();
    return e;
  }
  if (consume("TT"))
    return for_type("Virtual table table for ");
  if (consume("TI"))
    return for_type("Typeinfo for ");
  if (consume("TS"))
    return for_type("Typeinfo name for ");
  if (consume("TH"))
    return for_name("Thread-local initialization routine for ");
  if (consume("TW"))
    return for_name("Thread-local wrapper routine for ");
  if (consume("GV"))
    return for_name("Initialization guard variable for ");
  if (consume("Tc")) {
    std::string first = call_offset();
    return thunk("Covariant thunk for " + first + " " + call_offset());
  }
  if (consume('T'))
    return thunk("Thunk for " + call_offset());
  fail();
}

// h <offset> _ | v <offset> _ <virtual offset> _. nvlink reads offsets as
// 64-bit integers, wrapping around.
std::string Parser::call_offset() {
  auto offset = [&] {
    bool negative = consume('n');
    uint64_t v = 0;
    for (char c : digits())
      v = v * 10 + static_cast<uint64_t>(c - '0');
    expect('_');
    return std::to_string(static_cast<int64_t>(negative ? 0 - v : v));
  };
  if (consume('h'))
    return "(offset " + offset() + ")";
  if (consume('v')) {
    std::string first = offset();
    return "(offset " + first + ", virtual offset " + offset() + ")";
  }
  fail();
}

// ---- names ----

// `scoped`: closures and unnamed types may stand alone, as they may
// everywhere but in a type.
Name Parser::name(bool scoped) {
  Nest nest(depth_);
  if (peek() == 'N')
    return nested_name();
  if (peek() == 'Z')
    return local_name();
  return unscoped_name(scoped);
}

// An unscoped name, or an unscoped template name and its arguments.
Name Parser::unscoped_name(bool scoped) {
  Name n;
  if (peek() == 'S' && peek(1) != 't') {
    const Type *t = substitution();
    if (peek() != 'I')
      fail();
    n.text = print(t);
    n.ident = t->ident;
  } else {
    if (!consume("St")) {
      n = unqualified_name(scoped);
      if (n.hidden)
        skip_separator_ = true; // see nested_name()
    } else if (peek() == 'I') { // "std" itself as a template, not a candidate
      n.text = n.ident = "std";
      n.text += template_args();
      n.template_args = true;
      return n;
    } else {
      n = unqualified_name(scoped);
      n.text = "std::" + n.text;
      if (n.hidden)
        skip_separator_ = true;
    }
    if (peek() != 'I')
      return n;
    add_prefix(n, n.ident); // the template name is a substitution candidate
  }
  n.text += template_args();
  n.template_args = true;
  return n;
}

// N [<CV-qualifiers>] [<ref-qualifier>] <prefix> <unqualified-name> E, with
// every prefix a substitution candidate.
Name Parser::nested_name() {
  expect('N');
  Name n;
  n.quals = cv_suffix(cv_qualifiers());
  if (consume('R'))
    n.quals += " &";
  else if (consume('O'))
    n.quals += " &&";

  bool candidate = false; // the prefix so far is not in the table yet
  bool empty = true;      // no component yet
  std::string first;      // the first component's constructor name
  char last = 0;          // the last piece: 'n'ame, template 'a'rguments, 's'ubstitution, 'M'
  // A hidden (_INTERNAL...) component prints nothing and drops the next
  // "::" due between components of any nested name: "A::f" for
  // [_INTERNAL, A, f] and [A, _INTERNAL, f]. If none follows, the very first
  // one of the whole name goes instead, if it was printed: "AB::" for
  // [A, B, _INTERNAL]. That one carries a mark till the end.
  auto append = [&](const std::string &text, bool hidden) {
    if (!empty) {
      bool very_first = separators_++ == 0;
      if (!std::exchange(skip_separator_, false))
        n.text += std::string(1, very_first ? kFirst : kMark) + "::";
    }
    n.text += text; // a hidden component has at most its ABI tags, or "~"
    if (hidden)
      skip_separator_ = true;
    empty = false;
  };
  while (!consume('E')) {
    if (peek() == 'M') { // the member prefix of a closure: nothing to print
      if (last != 'n')
        fail();
      pos_++;
      last = 'M';
      continue;
    }
    n.template_args = false;
    if (candidate)
      add_prefix(n, first);
    candidate = true;
    if (peek() == 'I') {
      if (empty || last == 'a')
        fail();
      n.text += template_args();
      n.template_args = true;
      last = 'a';
      continue;
    }
    if (peek() == 'S' || peek() == 'T' || (peek() == 'D' && (peek(1) == 't' || peek(1) == 'T'))) {
      // A substitution, template parameter or decltype (type() records the
      // last two); the prefix it ends is not a candidate.
      candidate = false;
      last = peek() == 'S' ? 's' : 'n';
      if (consume("St")) {
        if (empty)
          first = "std";
        append("std", false);
        n.ident = "std";
        continue;
      }
      const Type *t;
      if (consume('T')) {
        // A template parameter as a prefix is a name ("T1*"); one with
        // template arguments cannot stand for a type on its own later.
        Type param;
        param.text = "T" + std::to_string(index('_') + 1);
        param.bare = true;
        param.needs_args = peek() == 'I';
        t = add(std::move(param));
      } else {
        t = peek() == 'S' ? substitution() : type();
      }
      if (empty)
        first = t->ident;
      append(print(t), t->hidden);
      // Types have no constructor name, and a constructor after one fails;
      // after T_ or decltype, it takes the class's before them.
      if (last == 's' || !t->ident.empty())
        n.ident = t->ident;
      n.hidden = t->hidden;
      continue;
    }
    bool is_structor = peek() == 'C' || (peek() == 'D' && peek(1) >= '0' && peek(1) <= '9');
    if (is_structor && empty)
      fail();
    Name part = is_structor ? structor(n) : unqualified_name(true);
    if (empty)
      first = part.ident;
    append(part.text, part.hidden);
    n.no_return = part.no_return;
    n.ident = part.ident;
    n.hidden = part.hidden;
    last = 'n';
  }
  if (empty || last == 's')
    fail();
  return n;
}

// A constructor or destructor of the class `scope` names; its kind goes to
// scope.kind.
Name Parser::structor(Name &scope) {
  Name part;
  part.no_return = true;
  bool ctor = peek() == 'C';
  pos_++;
  char k = peek();
  pos_++;
  if (ctor && k == 'I') { // inheriting constructor: named after the base
    k = peek();
    pos_++;
    if (k != '1' && k != '2')
      fail();
    const Type *base = type();
    part.text = print(base);
    scope.kind = k == '1' ? " [complete inheriting]" : " [base inheriting]";
  } else {
    if (ctor && (k == '1' || k == '2' || k == '3'))
      scope.kind = k == '1' ? "" : k == '2' ? " [subobject]" : " [allocating]";
    else if (!ctor && (k == '0' || k == '1' || k == '2'))
      scope.kind = k == '0' ? " [deleting]" : k == '1' ? "" : " [subobject]";
    else
      fail();
    // A class hidden as _INTERNAL... hides its constructors too, all but
    // the "~" of a destructor.
    if (scope.ident.empty() && !scope.hidden)
      fail();
    part.hidden = scope.ident.empty();
    part.text = (ctor ? "" : "~") + scope.ident;
  }
  part.text += abi_tags();
  part.ident = scope.ident;
  return part;
}

// Z <function encoding> E <entity name> [<discriminator>]
// Z <function encoding> E s [<discriminator>]          (a string literal)
// Z <function encoding> Ed [<number>] _ <entity name>  (in a default argument)
Name Parser::local_name() {
  expect('Z');
  Encoding e = encoding();
  expect('E');
  std::string scope = e.head + e.tail + "::";
  Name n;
  if (consume('s')) {
    // A string literal; nvlink reads a signature after it as a template's,
    // return type first.
    n.text = scope + "string";
    n.template_args = true;
  } else if (consume('d')) {
    size_t argument = index('_') + 1;
    n = name();
    n.text = scope + "[default argument " + std::to_string(argument) + " (from end)]::" + n.text;
  } else {
    n = name();
    n.text = scope + n.text;
  }
  if (size_t d = discriminator())
    n.text += instance(d);
  return n;
}

// A source name as printed: nvcc's names for anonymous namespaces show as
// "<unnamed>", and its _INTERNAL... wrappers of internal-linkage names not
// at all.
Name Parser::identifier() {
  Name n;
  std::string id = source_name();
  if (id.starts_with("_GLOBAL__N_"))
    n.text = n.ident = "<unnamed>";
  else if (id.starts_with("_INTERNAL"))
    n.hidden = true;
  else
    n.text = n.ident = id;
  return n;
}

// A source name, operator, closure or unnamed type, with its ABI tags.
Name Parser::unqualified_name(bool scoped) {
  Name n;
  char c = peek();
  if (c >= '0' && c <= '9') {
    n = identifier();
  } else if (scoped && consume("Ut")) {
    n.text = "[unnamed type" + instance(index('_') + 1) + "]";
  } else if (scoped && consume("Ul")) {
    std::vector<const Type *> params;
    while (peek() != 'E' && !ellipsis(params))
      params.push_back(type());
    if (params.empty())
      fail();
    expect('E');
    n.text = "[lambda(" + parameters(params) + ")" + instance(index('_') + 1) + "]";
  } else if (consume("cv")) {
    n.text = "operator " + print(type());
    n.no_return = true;
  } else if (consume("li")) {
    n.text = "operator \"\"" + source_name();
  } else {
    const Operator *op = find_operator(s_.substr(pos_).substr(0, 2));
    if (!op)
      fail();
    pos_ += 2;
    n.text = std::string("operator ") + op->name;
  }
  std::string tags = abi_tags();
  n.text += tags;
  if (!n.ident.empty())
    n.ident += tags; // constructors repeat the tags: "A[abi:x]::A[abi:x]()"
  else if (c < '0' || c > '9')
    n.ident = n.text;
  return n;
}

std::string Parser::abi_tags() {
  std::vector<std::string> tags;
  while (consume('B'))
    tags.push_back(source_name());
  if (tags.empty())
    return "";
  std::string s = "[abi:";
  for (size_t i = 0; i < tags.size(); i++)
    s += (i ? "," : "") + tags[i];
  return s + "]";
}

// Packs (J...E) print as their elements; an empty one leaves an empty item.
std::string Parser::template_args() {
  expect('I');
  std::vector<std::string> args;
  while (!consume('E'))
    args.push_back(template_arg());
  std::string s = "<" + join(args) + ">";
  charge(s.size());
  return s;
}

std::string Parser::template_arg() {
  Nest nest(depth_);
  if (consume('X')) {
    std::string e = expression();
    expect('E');
    return e;
  }
  if (peek() == 'L')
    return primary();
  if (consume('J')) {
    std::vector<std::string> items;
    while (!consume('E'))
      items.push_back(template_arg());
    return join(items);
  }
  return print(type());
}

} // namespace dlink::demangler
