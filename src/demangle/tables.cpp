// The demangler's operator and builtin-type tables and small text helpers
// (parser.h).
#include "parser.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

namespace dlink::demangler {

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

} // namespace dlink::demangler
