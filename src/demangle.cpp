// Itanium C++ ABI demangler printing names the way nvlink does (demangle.h).
//
// A recursive-descent parser over the mangling grammar of the Itanium C++ ABI
// (itanium-cxx-abi.github.io/cxx-abi/abi.html#mangling). Names and
// expressions become text as soon as they are parsed. Types become a small
// tree, because how a type prints depends on where it ends up: C declarator
// syntax puts the declarator inside the type ("int (*)[3]"), so
// print(type, inner) prints `type` declaring `inner`.
//
// Every rule below that is not plain C++ syntax was measured with nvlink
// 13.0.88 -dump-callgraph (testdata/demangle/).
#include "dlink/demangle.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <utility>
#include <vector>

namespace dlink {

namespace {

struct Invalid {}; // malformed or unsupported: nvlink prints the raw name

// Bounds that keep hostile input from exhausting the stack or memory. nvlink
// itself decodes names nested thousands of levels deep; real ones never are.
constexpr int kMaxDepth = 256;
constexpr size_t kMaxOutput = size_t{1} << 22;

// The "::" between components of nested names carry a mark until the output
// is complete (see nested_name()): the first one of the whole name kFirst,
// the others kMark.
constexpr char kFirst = '\x01';
constexpr char kMark = '\x02';

void strip_marks(std::string &s) {
  std::erase(s, kFirst);
  std::erase(s, kMark);
}

// Drops the first marked "::" of `s`; false if there is none.
bool drop_separator(std::string &s, bool only_first = false) {
  size_t at = only_first ? s.find(kFirst) : s.find_first_of("\x01\x02");
  if (at == std::string::npos)
    return false;
  s.erase(at, 3);
  return true;
}

enum : unsigned { kConst = 1, kVolatile = 2, kRestrict = 4 };

struct Type {
  enum class Kind { Named, Pointer, LRef, RRef, MemberPtr, Function, Array, Qualified, Complex, Vendor, Pack };
  Kind kind = Kind::Named;
  // Named: the name. MemberPtr: the class. Array: the dimension. Vendor: the
  // qualifier. Function: the ref-qualifier (" &").
  std::string text;
  std::string exception; // Function: " noexcept", printed after everything
  std::string ident; // Named name prefix: the constructor name after it
  // Named: no space before a declarator ("A*" rather than "A *"). nvlink
  // prints so the types it reaches through a substitution of a name prefix
  // or a template name, and the std:: abbreviations (Sa, Ss, ...).
  bool bare = false;
  bool hidden = false;              // Named: a name prefix ending in an _INTERNAL... component
  bool template_name = false;       // Named: a template template parameter (takes no cv)
  bool needs_args = false;          // Named: only usable with template arguments
  unsigned cv = 0;                  // Qualified
  const Type *of = nullptr;         // pointee, element, return or qualified type
  std::vector<const Type *> params; // Function
};

struct Name {
  std::string text;            // "A<int>::f<float>"
  std::string ident;           // the last component: constructors are named after it
  bool template_args = false;  // ends in template arguments: a function template
  bool no_return = false;      // constructor, destructor or conversion
  std::string quals;           // member function qualifiers: " const &"
  std::string kind;            // constructor or destructor kind: " [deleting]"
  bool hidden = false;         // ends in an _INTERNAL... component, which prints nothing
};

struct Encoding {
  Name name;
  bool function = false;
  std::string head; // up to the parameters' closing parenthesis
  std::string tail; // qualifiers and constructor kind after it
};

struct Operator {
  const char *code;
  const char *name; // after "operator " in a function name; in an expression
  int arity;        // in an expression; 0: printed apart
};

// nvlink names a function after every operator code, even those that cannot
// be overloaded ("operator sizeof()").
constexpr Operator kOperators[] = {
    {"nw", "new ", 0}, {"na", "new[] ", 0}, {"dl", "delete ", 0}, {"da", "delete[] ", 0},
    {"aw", "co_await", 0}, {"ps", "+", 1}, {"ng", "-", 1}, {"ad", "&", 1},
    {"de", "*", 1}, {"co", "~", 1}, {"nt", "!", 1}, {"pp", "++", 1},
    {"mm", "--", 1}, {"pl", "+", 2}, {"mi", "-", 2}, {"ml", "*", 2},
    {"dv", "/", 2}, {"rm", "%", 2}, {"an", "&", 2}, {"or", "|", 2},
    {"eo", "^", 2}, {"aS", "=", 2}, {"pL", "+=", 2}, {"mI", "-=", 2},
    {"mL", "*=", 2}, {"dV", "/=", 2}, {"rM", "%=", 2}, {"aN", "&=", 2},
    {"oR", "|=", 2}, {"eO", "^=", 2}, {"ls", "<<", 2}, {"rs", ">>", 2},
    {"lS", "<<=", 2}, {"rS", ">>=", 2}, {"eq", "==", 2}, {"ne", "!=", 2},
    {"lt", "<", 2}, {"gt", ">", 2}, {"le", "<=", 2}, {"ge", ">=", 2},
    {"ss", "<=>", 2}, {"aa", "&&", 2}, {"oo", "||", 2}, {"cm", ",", 2},
    {"pm", "->*", 2}, {"ds", ".*", 2}, {"ix", "[]", 2}, {"qu", "?", 3},
    {"pt", "->", 0}, {"cl", "()", 0}, {"tr", "throw", 0}, {"tw", "throw ", 0},
    {"st", "sizeof()", 0}, {"sz", "sizeof()", 0}, {"at", "alignof()", 0}, {"az", "alignof()", 0},
    {"nx", "noexcept()", 0}, {"ti", "typeid()", 0}, {"te", "typeid()", 0}, {"sc", "static_cast", 0},
    {"dc", "dynamic_cast", 0}, {"cc", "const_cast", 0}, {"rc", "reinterpret_cast", 0},
};

const Operator *find_operator(std::string_view code) {
  for (const Operator &op : kOperators)
    if (code == op.code)
      return &op;
  return nullptr;
}

const char *builtin_name(char c) {
  switch (c) {
  case 'v': return "void";
  case 'w': return "wchar_t";
  case 'b': return "bool";
  case 'c': return "char";
  case 'a': return "signed char";
  case 'h': return "unsigned char";
  case 's': return "short";
  case 't': return "unsigned short";
  case 'i': return "int";
  case 'j': return "unsigned int";
  case 'l': return "long";
  case 'm': return "unsigned long";
  case 'x': return "long long";
  case 'y': return "unsigned long long";
  case 'n': return "__int128";
  case 'o': return "unsigned __int128";
  case 'f': return "float";
  case 'd': return "double";
  case 'e': return "long double";
  case 'g': return "__float128";
  default: return nullptr;
  }
}

// The std:: abbreviations other than St, and the constructor name of each.
struct Abbreviation {
  char code;
  const char *text;
  const char *ident;
};
constexpr Abbreviation kAbbreviations[] = {
    {'a', "std::allocator", "allocator"},
    {'b', "std::basic_string", "basic_string"},
    {'s', "std::basic_string<char, std::char_traits<char>, std::allocator<char>>", "basic_string"},
    {'i', "std::basic_istream<char, std::char_traits<char>>", "basic_istream"},
    {'o', "std::basic_ostream<char, std::char_traits<char>>", "basic_ostream"},
    {'d', "std::basic_iostream<char, std::char_traits<char>>", "basic_iostream"},
};
// Any other lowercase letter after S names nothing: "f(, int)", "::A".

// " const volatile restrict", as after a function's parameters.
std::string cv_suffix(unsigned cv) {
  std::string s;
  for (auto [bit, word] : {std::pair{kConst, " const"}, {kVolatile, " volatile"}, {kRestrict, " restrict"}})
    if (cv & bit)
      s += word;
  return s;
}

std::string cv_text(unsigned cv) { return cv_suffix(cv).substr(1); }

std::string join(const std::vector<std::string> &items) {
  std::string s;
  for (size_t i = 0; i < items.size(); i++)
    s += (i ? ", " : "") + items[i];
  return s;
}

// Floating-point literals print with the type's decimal precision, and as
// "1.0" rather than "1".
std::string format_float(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) // "inf" and "nan" have an n
    s += ".0";
  return s;
}

class Parser {
public:
  explicit Parser(std::string_view s) : s_(s) {}

  std::string mangled_name();

private:
  // Counts nesting, so malformed input cannot recurse without bound.
  class Nest {
  public:
    explicit Nest(int &depth) : depth_(depth) {
      if (++depth_ > kMaxDepth)
        throw Invalid{};
    }
    ~Nest() { --depth_; }
    Nest(const Nest &) = delete;
    Nest &operator=(const Nest &) = delete;

  private:
    int &depth_;
  };

  [[noreturn]] static void fail() { throw Invalid{}; }
  char peek(size_t k = 0) const { return pos_ + k < s_.size() ? s_[pos_ + k] : '\0'; }
  bool eof() const { return pos_ >= s_.size(); }
  bool consume(char c) {
    if (peek() != c)
      return false;
    pos_++;
    return true;
  }
  bool consume(std::string_view p) {
    if (s_.substr(pos_).substr(0, p.size()) != p)
      return false;
    pos_ += p.size();
    return true;
  }
  void expect(char c) {
    if (!consume(c))
      fail();
  }
  void charge(size_t n) {
    printed_ += n;
    if (printed_ > kMaxOutput)
      fail();
  }

  std::string digits();
  unsigned cv_qualifiers();
  size_t count();
  std::string number();
  size_t seq_id(char end);
  size_t index(char end);
  std::string source_name();
  static std::string instance(size_t n) { return " (instance " + std::to_string(n) + ")"; }
  size_t discriminator();

  Encoding encoding();
  Encoding plain_encoding();
  Encoding special_name();
  std::string call_offset();
  bool ellipsis(std::vector<const Type *> &params);
  std::string parameters(const std::vector<const Type *> &types);
  Name name(bool scoped = true);
  Name unscoped_name(bool scoped);
  Name nested_name();
  Name local_name();
  Name unqualified_name(bool scoped);
  Name identifier();
  Name structor(Name &scope);
  std::string abi_tags();
  std::string template_args();
  std::string template_arg();

  const Type *type();
  const Type *d_type();
  const Type *function_type(std::string exception_spec, bool any_lead = false);
  const Type *substitution();
  const Type *add(Type t);
  const Type *make(Type t);
  const Type *named(std::string text, bool bare = false, std::string ident = {});
  // Records a name prefix or template name. A constructor after it takes
  // the name of its first component ("ns::A::ns()" for N S0_ C1 E, S0_ being
  // ns::A): `ident`.
  void add_prefix(const Name &n, const std::string &ident) {
    Type t;
    t.text = n.text;
    t.ident = ident;
    t.bare = true;
    t.hidden = n.hidden;
    subs_.push_back(make(std::move(t)));
  }

  std::string expression();
  std::string expression_list(char end);
  std::string primary();
  std::string function_param();
  std::string unresolved_name();
  std::string base_name();
  std::string simple_id();

  // How a name meets what follows it: a space before a declarator (none
  // after a bare name), a space even before an empty one (after _Complex),
  // or nothing (a pack's "...").
  enum class Sep { Normal, Declared, Attached };
  std::string print(const Type *t, const std::string &inner = {}, Sep sep = Sep::Normal);
  std::string declarator(const Type *of, const std::string &op, const std::string &inner);
  std::string print_function(const Type *f, const std::string &inner, unsigned cv);

  std::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;
  int print_depth_ = 0;
  size_t printed_ = 0;
  bool skip_separator_ = false; // see nested_name()
  size_t separators_ = 0;        // "::" due in nested names so far
  std::deque<Type> types_; // owns every Type; a deque keeps them in place
  std::vector<const Type *> subs_;
};

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

// ---- expressions ----

std::string Parser::expression_list(char end) {
  std::vector<std::string> items;
  while (!consume(end))
    items.push_back(expression());
  return join(items);
}

std::string Parser::expression() {
  Nest nest(depth_);
  char c = peek();
  if (c == 'L')
    return primary();
  if (consume('T')) // unlike a type, not a substitution candidate
    return "T" + std::to_string(index('_') + 1);
  if (c >= '0' && c <= '9')
    return simple_id();
  if (peek() == 'f' && (peek(1) == 'p' || (peek(1) == 'L' && peek(2) >= '0' && peek(2) <= '9')))
    return function_param();

  std::string code(s_.substr(pos_).substr(0, 2));
  if (code.size() < 2)
    fail();
  pos_ += 2;
  if (code == "gs") { // ::new, ::delete
    std::string e = expression();
    return "::" + e;
  }
  if (code == "nw" || code == "na") {
    std::string placement = expression_list('_');
    std::string s = code == "nw" ? "new " : "new[] ";
    if (!placement.empty())
      s += "(" + placement + ") ";
    s += print(type());
    if (consume("pi"))
      s += "(" + expression_list('E') + ")";
    else
      expect('E');
    return s;
  }
  if (code == "dl" || code == "da")
    return (code == "dl" ? "delete " : "delete[] ") + expression();
  if (code == "cl") {
    std::string callee = expression();
    return callee + "(" + expression_list('E') + ")";
  }
  if (code == "cv") {
    std::string t = print(type());
    if (consume('_'))
      return t + "(" + expression_list('E') + ")";
    return "(" + t + ")" + expression();
  }
  if (code == "tl") {
    std::string t = print(type());
    return t + "{" + expression_list('E') + "}";
  }
  if (code == "il")
    return "{" + expression_list('E') + "}";
  if (code == "dc" || code == "sc" || code == "cc" || code == "rc") {
    const char *cast = code == "dc" ? "dynamic_cast" : code == "sc" ? "static_cast" : code == "cc" ? "const_cast" : "reinterpret_cast";
    std::string t = print(type());
    return std::string(cast) + "<" + t + ">(" + expression() + ")";
  }
  if (code == "ti")
    return "typeid(" + print(type()) + ")";
  if (code == "te")
    return "typeid(" + expression() + ")";
  if (code == "st")
    return "sizeof(" + print(type()) + ")";
  if (code == "sz")
    return "sizeof(" + expression() + ")";
  if (code == "at")
    return "alignof(" + print(type()) + ")";
  if (code == "az")
    return "alignof(" + expression() + ")";
  if (code == "nx")
    return "noexcept(" + expression() + ")";
  if (code == "aw")
    return "co_await " + expression();
  if (code == "sZ") { // of a template or function parameter only
    bool param = peek() == 'f' && (peek(1) == 'p' || (peek(1) == 'L' && peek(2) >= '0' && peek(2) <= '9'));
    if (peek() != 'T' && !param)
      fail();
    return "sizeof...(" + expression() + ")";
  }
  if (code == "sp")
    return expression() + "...";
  if (code == "tw")
    return "throw " + expression();
  if (code == "tr")
    return "throw";
  if (code == "dt" || code == "pt") {
    std::string object = expression();
    std::string member = consume("sr") ? unresolved_name() : base_name();
    return "(" + object + (code == "dt" ? "." : "->") + member + ")";
  }
  if (code == "sr")
    return unresolved_name();
  if (code == "on" || code == "dn") {
    pos_ -= 2;
    return base_name();
  }
  if (code == "fl" || code == "fr" || code == "fL" || code == "fR") {
    const Operator *op = find_operator(s_.substr(pos_).substr(0, 2));
    if (!op || op->arity != 2)
      fail();
    pos_ += 2;
    std::string sym = op->name;
    std::string a = expression();
    if (code == "fl")
      return "(..." + sym + a + ")";
    if (code == "fr")
      return "(" + a + sym + "...)";
    return "(" + a + sym + "..." + sym + expression() + ")";
  }
  const Operator *op = find_operator(code);
  if (!op || op->arity == 0)
    fail();
  std::string sym = op->name;
  if (op->arity == 1) {
    if (code == "pp" || code == "mm") {
      if (consume('_'))
        return sym + expression();
      return expression() + sym;
    }
    return sym + expression();
  }
  std::string a = expression();
  if (op->arity == 3) {
    std::string b = expression();
    return a + "?" + b + ":" + expression();
  }
  std::string b = expression();
  if (code == "ix")
    return a + "[" + b + "]";
  return a + sym + b;
}

// fp [<CV-qualifiers>] [<number>] _ | fL <number> p [<CV-qualifiers>] [<number>] _
std::string Parser::function_param() {
  pos_ += 2;
  size_t level = 0;
  if (s_[pos_ - 1] == 'L') {
    level = count() + 1;
    expect('p');
  }
  unsigned cv = cv_qualifiers();
  std::string s = (cv ? cv_text(cv) + " " : "") + "param#" + std::to_string(index('_') + 1);
  if (level)
    s += "[up " + std::to_string(level) + (level == 1 ? " level]" : " levels]");
  return s;
}

// L <type> <value> E | L _Z <encoding> E. The value of a floating-point
// literal is its bits in hexadecimal: nvlink reads up to 8 digits as a float,
// up to 16 as a double, whatever the type, and none as 0.0. Any other literal
// without a value prints as "...".
std::string Parser::primary() {
  expect('L');
  if (consume("_Z")) {
    Encoding e = encoding();
    expect('E');
    return e.name.text + e.name.quals;
  }
  const Type *t = type();
  std::string s = "(" + print(t) + ")";
  if (t->text == "float" || t->text == "double" || t->text == "long double" || t->text == "__float128") {
    size_t start = pos_;
    uint64_t bits = 0;
    for (char c; (c = peek()) != 'E'; pos_++) {
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
        fail();
      bits = bits << 4 | static_cast<uint64_t>(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    size_t n = pos_ - start;
    if (n % 2 || n > 16)
      fail();
    if (n <= 8) {
      uint32_t b32 = static_cast<uint32_t>(bits);
      float f;
      std::memcpy(&f, &b32, sizeof f);
      s += format_float(f, 6);
    } else {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      s += format_float(d, 15);
    }
  } else if (peek() == 'E') {
    s = t->text == "std::nullptr_t" ? "nullptr" : s + "\"...\"";
  } else {
    s += number();
  }
  expect('E');
  return s;
}

// <source-name> [<template-args>], as in a call "cl 1g fp_ E".
std::string Parser::simple_id() {
  Name n = identifier();
  if (n.hidden)
    skip_separator_ = true;
  std::string s = n.text;
  if (peek() == 'I')
    s += template_args();
  return s;
}

// sr [N] <unresolved type> [<qualifier>+ E] <name>, or
// sr <qualifier>+ E <name>: "T1::x", "std::is_integral<T1>::value".
std::string Parser::unresolved_name() {
  std::string s;
  if (peek() >= '0' && peek() <= '9') {
    s = simple_id();
    while (!consume('E'))
      s += "::" + simple_id();
  } else if (consume('N')) {
    s = print(type());
    while (!consume('E'))
      s += "::" + simple_id();
  } else {
    s = print(type());
  }
  return s + "::" + base_name();
}

// <base-unresolved-name>: a name, "on" an operator or "dn" a destructor.
std::string Parser::base_name() {
  if (consume("on")) {
    const Operator *op = find_operator(s_.substr(pos_).substr(0, 2));
    if (!op)
      fail();
    pos_ += 2;
    std::string s = std::string("operator ") + op->name;
    if (peek() == 'I')
      s += template_args();
    return s;
  }
  if (consume("dn"))
    return "~" + (peek() >= '0' && peek() <= '9' ? simple_id() : print(type()));
  if (peek() < '0' || peek() > '9')
    fail();
  return simple_id();
}

// ---- printing ----

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

} // namespace

std::optional<std::string> demangle(std::string_view name) {
  if (!name.starts_with("_Z"))
    return std::nullopt;
  try {
    return Parser(name).mangled_name();
  } catch (const Invalid &) {
    return std::nullopt;
  }
}

} // namespace dlink
