// The demangler's expressions (parser.h).
#include "parser.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <utility>

namespace dlink::demangler {

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

} // namespace dlink::demangler
