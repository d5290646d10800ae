// The Itanium demangler's parser (src/demangle.cpp describes it): the types
// it builds and the Parser class, whose members are defined by concern in
// names.cpp (lexical pieces, encodings, names), types.cpp (types and their
// printing) and expressions.cpp; tables.cpp holds the operator and builtin
// tables.
#pragma once

// GCC 12 at -O3 reports `"x" + std::string` concatenations inlined across
// these files as overlapping copies (GCC bug 105329, a false positive).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wrestrict"
#endif

#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace dlink::demangler {

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

inline void strip_marks(std::string &s) {
  std::erase(s, kFirst);
  std::erase(s, kMark);
}

// Drops the first marked "::" of `s`; false if there is none.
inline bool drop_separator(std::string &s, bool only_first = false) {
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

const Operator *find_operator(std::string_view code);
const char *builtin_name(char c);

// The std:: abbreviations other than St, and the constructor name of each.
struct Abbreviation {
  char code;
  const char *text;
  const char *ident;
};
inline constexpr Abbreviation kAbbreviations[] = {
    {'a', "std::allocator", "allocator"},
    {'b', "std::basic_string", "basic_string"},
    {'s', "std::basic_string<char, std::char_traits<char>, std::allocator<char>>", "basic_string"},
    {'i', "std::basic_istream<char, std::char_traits<char>>", "basic_istream"},
    {'o', "std::basic_ostream<char, std::char_traits<char>>", "basic_ostream"},
    {'d', "std::basic_iostream<char, std::char_traits<char>>", "basic_iostream"},
};
// Any other lowercase letter after S names nothing: "f(, int)", "::A".

// " const volatile restrict", as after a function's parameters.
std::string cv_suffix(unsigned cv);
std::string cv_text(unsigned cv);
std::string join(const std::vector<std::string> &items);
// Floating-point literals print with the type's decimal precision, and as
// "1.0" rather than "1".
std::string format_float(double v, int digits);

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

} // namespace dlink::demangler
