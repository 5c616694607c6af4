"""A reader of the small part of Go that kustomize's build tests (api/krusty) are written
in: enough to *run* a test function's body and see which files it writes and which
builds it asks for, without a Go toolchain.

It tokenizes Go (with its automatic semicolons), parses declarations, statements and
expressions into tuples, and :mod:`krusty_eval` walks them.  Anything outside the
subset raises :class:`Unsupported`, so a test is either read whole or named as not
read, never half read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


class Unsupported(Exception):
    """The test uses Go this reader does not follow (the text says what)."""


_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r]+) | (?P<nl>\n) | (?P<lcomment>//[^\n]*) | (?P<bcomment>/\*.*?\*/)
  | (?P<raw>`[^`]*`) | (?P<str>"(?:[^"\\\n]|\\.)*") | (?P<rune>'(?:[^'\\\n]|\\.)+')
  | (?P<num>0[xX][0-9a-fA-F_]+|\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op>\.\.\.|<<=|>>=|&\^=|&\^|:=|==|!=|<=|>=|&&|\|\||<-|\+\+|--|\+=|-=|\*=|/=|%=
          |&=|\|=|\^=|<<|>>|[-+*/%&|^<>=!(){}\[\],;.:~])
""", re.S | re.X)
_SEMI_AFTER = {"ident", "num", "str", "raw", "rune"}
_SEMI_AFTER_WORDS = {"break", "continue", "fallthrough", "return"}
_SEMI_AFTER_OPS = {"++", "--", ")", "]", "}"}


@dataclass
class Tok:
    kind: str   # ident, num, str, raw, rune, op, eof
    text: str


def tokenize(text: str) -> list[Tok]:
    out: list[Tok] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise Unsupported(f"cannot read Go at {text[pos:pos + 20]!r}")
        kind = m.lastgroup or ""
        pos = m.end()
        token = m.group()
        newline = kind == "nl" or (kind == "bcomment" and "\n" in token)
        if newline or kind == "lcomment" and pos >= len(text):
            if out and _needs_semi(out[-1]):
                out.append(Tok("op", ";"))
            continue
        if kind in ("ws", "lcomment", "bcomment"):
            continue
        out.append(Tok(kind, token))
    if out and _needs_semi(out[-1]):
        out.append(Tok("op", ";"))
    out.append(Tok("eof", ""))
    return out


def _needs_semi(tok: Tok) -> bool:
    if tok.kind == "ident":
        return True if tok.text not in _KEYWORDS else tok.text in _SEMI_AFTER_WORDS
    return tok.kind in _SEMI_AFTER or (tok.kind == "op" and tok.text in _SEMI_AFTER_OPS)


_KEYWORDS = {"break", "case", "chan", "const", "continue", "default", "defer", "else",
             "fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map",
             "package", "range", "return", "select", "struct", "switch", "type", "var"}
_BINARY = [["||"], ["&&"], ["==", "!=", "<", "<=", ">", ">="], ["+", "-", "|", "^"],
           ["*", "/", "%", "<<", ">>", "&", "&^"]]


@dataclass
class Package:
    funcs: dict[str, tuple] = field(default_factory=dict)    # name -> ("func", params, body)
    values: dict[str, tuple] = field(default_factory=dict)   # const/var name -> expression
    types: dict[str, tuple] = field(default_factory=dict)    # type name -> type


class Parser:
    def __init__(self, text: str) -> None:
        self.toks = tokenize(text)
        self.i = 0
        self.no_brace = 0   # inside an if/for/switch header: `T{` is not a literal

    # -- tokens
    def peek(self, ahead: int = 0) -> Tok:
        return self.toks[min(self.i + ahead, len(self.toks) - 1)]

    def at(self, *texts: str) -> bool:
        tok = self.peek()
        return tok.kind in ("op", "ident") and tok.text in texts

    def take(self) -> Tok:
        tok = self.peek()
        self.i += 1
        return tok

    def expect(self, text: str) -> Tok:
        tok = self.take()
        if tok.text != text:
            raise Unsupported(f"expected {text!r}, found {tok.text!r}")
        return tok

    def skip_semis(self) -> None:
        while self.at(";"):
            self.take()

    # -- declarations
    def file(self, pkg: Package) -> None:
        self.skip_semis()
        self.expect("package")
        self.take()
        self.skip_semis()
        while self.peek().kind != "eof":
            word = self.take().text
            if word == "import":
                self._group(lambda: self._import())
            elif word in ("const", "var"):
                self._group(lambda: self._value_spec(pkg))
            elif word == "type":
                self._group(lambda: self._type_spec(pkg))
            elif word == "func":
                self._func_decl(pkg)
            else:
                raise Unsupported(f"top-level {word!r}")
            self.skip_semis()

    def _group(self, spec) -> None:
        if self.at("("):
            self.take()
            self.skip_semis()
            while not self.at(")"):
                spec()
                self.skip_semis()
            self.take()
        else:
            spec()

    def _import(self) -> None:
        while not self.at(";", ")"):
            self.take()

    def _value_spec(self, pkg: Package) -> None:
        names = [self.take().text]
        while self.at(","):
            self.take()
            names.append(self.take().text)
        if not self.at("="):
            self.type_()
        if self.at("="):
            self.take()
            values = self.expr_list()
            for name, value in zip(names, values):
                pkg.values[name] = value

    def _type_spec(self, pkg: Package) -> None:
        name = self.take().text
        if self.at("="):
            self.take()
        pkg.types[name] = self.type_()

    def _func_decl(self, pkg: Package) -> None:
        method = self.at("(")
        if method:
            self.params()
        name = self.take().text
        params = self.params()
        named = self.results()
        start = self.i
        try:
            body = self.block() if self.at("{") else ("block", [])
        except (Unsupported, ValueError, IndexError) as err:
            self.i, self.no_brace = start, 0
            self._skip_braces()
            body = ("unsupported", str(err))
        if not method:
            pkg.funcs[name] = ("func", params, body, named)

    def params(self) -> list[str]:
        """Parameter names (types dropped); `(a, b string, c int)`."""
        self.expect("(")
        groups: list[list[Tok]] = [[]]
        depth = 0
        while depth or not self.at(")"):
            tok = self.take()
            if tok.text in ("(", "[", "{"):
                depth += 1
            elif tok.text in (")", "]", "}"):
                depth -= 1
            if tok.text == "," and depth == 0:
                groups.append([])
            else:
                groups[-1].append(tok)
        self.take()
        named = any(len(g) > 1 and g[0].kind == "ident" for g in groups if g)
        return [g[0].text for g in groups if g] if named else ["_"] * len([g for g in groups if g])

    def results(self) -> list[str]:
        """The names of named results (none when unnamed)."""
        if self.at("("):
            names = self.params()
            return [] if "_" in names else names
        if not self.at("{", ";", ",", ")", "}", "]", "=") and self.peek().kind != "eof":
            self.type_()
        return []

    # -- types
    def type_(self) -> tuple:
        tok = self.take()
        if tok.text == "*":
            return ("ptr", self.type_())
        if tok.text == "[":
            if self.at("]"):
                self.take()
                return ("slice", self.type_())
            if self.at("..."):
                self.take()
            else:
                self.expr()
            self.expect("]")
            return ("slice", self.type_())
        if tok.text == "map":
            self.expect("[")
            key = self.type_()
            self.expect("]")
            return ("map", key, self.type_())
        if tok.text == "struct":
            return ("struct", self._struct_fields())
        if tok.text == "interface":
            self._skip_braces()
            return ("named", "interface{}")
        if tok.text == "func":
            self.params()
            self.results()
            return ("named", "func")
        if tok.text == "chan":
            return ("named", "chan " + str(self.type_()))
        if tok.kind != "ident":
            raise Unsupported(f"type starting {tok.text!r}")
        name = tok.text
        if self.at(".") and self.peek(1).kind == "ident":
            self.take()
            name += "." + self.take().text
        return ("named", name)

    def _struct_fields(self) -> list[tuple[str, tuple]]:
        self.expect("{")
        fields: list[tuple[str, tuple]] = []
        self.skip_semis()
        while not self.at("}"):
            names = [self.take().text]
            while self.at(","):
                self.take()
                names.append(self.take().text)
            ftype = self.type_() if not self.at(";", "}") else ("named", names[0])
            if self.peek().kind in ("str", "raw"):
                self.take()
            fields.extend((n, ftype) for n in names)
            self.skip_semis()
        self.take()
        return fields

    def _skip_braces(self) -> None:
        self.expect("{")
        depth = 1
        while depth:
            text = self.take().text
            depth += {"{": 1, "}": -1}.get(text, 0)

    # -- statements
    def block(self) -> tuple:
        self.expect("{")
        saved, self.no_brace = self.no_brace, 0
        stmts = []
        self.skip_semis()
        while not self.at("}"):
            stmts.append(self.stmt())
            self.skip_semis()
        self.take()
        self.no_brace = saved
        return ("block", stmts)

    def stmt(self) -> tuple:
        word = self.peek().text if self.peek().kind == "ident" else ""
        if word == "for":
            return self._for()
        if word == "if":
            return self._if()
        if word == "return":
            self.take()
            return ("return", [] if self.at(";", "}") else self.expr_list())
        if word in ("defer", "go"):
            self.take()
            return ("defer", self.expr())
        if word in ("var", "const"):
            self.take()
            names = [self.take().text]
            while self.at(","):
                self.take()
                names.append(self.take().text)
            vtype = None if self.at("=") else self.type_()
            values = None
            if self.at("="):
                self.take()
                values = self.expr_list()
            return ("var", names, vtype, values)
        if word in ("break", "continue"):
            self.take()
            return (word,)
        if word == "type":
            self.take()
            self.take()
            self.type_()
            return ("block", [])
        if word in ("switch", "select", "goto"):
            raise Unsupported(f"statement {word!r}")
        if self.at("{"):
            return self.block()
        return self.simple()

    def simple(self) -> tuple:
        lhs = self.expr_list()
        if self.at(":=", "=", "+=", "-=") :
            op = self.take().text
            if self.at("range"):
                self.take()
                return ("range", lhs, op, self.expr())
            return ("assign", lhs, op, self.expr_list())
        if self.at("++", "--"):
            op = self.take().text
            return ("assign", lhs, "+=" if op == "++" else "-=", [("lit", 1)])
        if len(lhs) != 1:
            raise Unsupported("expression list as a statement")
        return ("expr", lhs[0])

    def _header(self, parse):
        self.no_brace += 1
        try:
            return parse()
        finally:
            self.no_brace -= 1

    def _for(self) -> tuple:
        self.take()
        if self.at("{"):
            return ("for", None, None, None, self.block())
        if self.at("range"):
            self.take()
            expr = self._header(self.expr)
            return ("foreach", ("range", [], ":=", expr), self.block())
        first = self._header(self.simple) if not self.at(";") else None
        if first and first[0] == "range":
            return ("foreach", first, self.block())
        if self.at("{"):
            return ("for", None, first[1] if first else None, None, self.block())
        self.expect(";")
        cond = None if self.at(";") else self._header(self.expr)
        self.expect(";")
        post = None if self.at("{") else self._header(self.simple)
        return ("for", first, cond, post, self.block())

    def _if(self) -> tuple:
        self.take()
        init = None
        first = self._header(self.simple)
        if self.at(";"):
            self.take()
            init, first = first, self._header(self.simple)
        if first[0] != "expr":
            raise Unsupported("if condition")
        body = self.block()
        other = None
        if self.at("else"):
            self.take()
            other = self._if() if self.at("if") else self.block()
        return ("if", init, first[1], body, other)

    # -- expressions
    def expr_list(self) -> list:
        out = [self.expr()]
        while self.at(","):
            self.take()
            out.append(self.expr())
        return out

    def expr(self, level: int = 0) -> tuple:
        if level == len(_BINARY):
            return self.unary()
        left = self.expr(level + 1)
        while self.peek().kind == "op" and self.peek().text in _BINARY[level]:
            op = self.take().text
            left = ("binary", op, left, self.expr(level + 1))
        return left

    def unary(self) -> tuple:
        if self.at("-", "+", "!", "^", "*", "&", "<-"):
            op = self.take().text
            return ("unary", op, self.unary())
        return self.primary()

    def primary(self) -> tuple:
        node = self.operand()
        while True:
            if self.at("."):
                self.take()
                if self.at("("):
                    self.take()
                    self.type_()
                    self.expect(")")
                    node = ("assert", node)
                else:
                    node = ("sel", node, self.take().text)
            elif self.at("("):
                self.take()
                args = []
                self.skip_semis()
                while not self.at(")"):
                    args.append(self.expr())
                    if self.at("..."):
                        self.take()
                        args[-1] = ("spread", args[-1])
                    if self.at(","):
                        self.take()
                    self.skip_semis()
                self.take()
                node = ("call", node, args)
            elif self.at("["):
                self.take()
                low = None if self.at(":") else self.expr()
                if self.at(":"):
                    self.take()
                    high = None if self.at("]") else self.expr()
                    self.expect("]")
                    node = ("slice", node, low, high)
                else:
                    self.expect("]")
                    node = ("index", node, low)
            elif self.at("{") and not self.no_brace and _is_type_expr(node):
                node = ("composite", _as_type(node), self.composite_body())
            else:
                return node

    def operand(self) -> tuple:
        tok = self.peek()
        if tok.kind in ("str", "raw"):
            self.take()
            return ("lit", go_string(tok.text))
        if tok.kind == "rune":
            self.take()
            return ("lit", ord(go_string('"' + tok.text[1:-1] + '"')))
        if tok.kind == "num":
            self.take()
            text = tok.text.replace("_", "")
            if text.lower().startswith("0x"):
                return ("lit", int(text, 16))
            if "." in text or "e" in text.lower():
                return ("lit", float(text))
            return ("lit", int(text, 8) if len(text) > 1 and text[0] == "0" else int(text))
        if tok.text == "(":
            self.take()
            saved, self.no_brace = self.no_brace, 0
            inner = self.expr()
            self.no_brace = saved
            self.expect(")")
            return inner
        if tok.text == "func":
            self.take()
            params = self.params()
            named = self.results()
            return ("funclit", params, self.block(), named)
        if tok.text in ("[", "map", "struct"):
            ctype = self.type_()
            if self.at("{"):
                return ("composite", ctype, self.composite_body())
            return ("type", ctype)
        if tok.kind == "ident":
            self.take()
            return ("ident", tok.text)
        raise Unsupported(f"expression starting {tok.text!r}")

    def composite_body(self) -> list[tuple[Any, tuple]]:
        self.expect("{")
        saved, self.no_brace = self.no_brace, 0
        elems: list[tuple[Any, tuple]] = []
        self.skip_semis()
        while not self.at("}"):
            first = self.composite_body_elem()
            if self.at(":"):
                self.take()
                self.skip_semis()
                elems.append((first, self.composite_body_elem()))
            else:
                elems.append((None, first))
            if self.at(","):
                self.take()
            self.skip_semis()
        self.take()
        self.no_brace = saved
        return elems

    def composite_body_elem(self) -> tuple:
        if self.at("{"):
            return ("composite", None, self.composite_body())
        return self.expr()


def _is_type_expr(node: tuple) -> bool:
    return node[0] == "ident" or (node[0] == "sel" and node[1][0] == "ident") or node[0] == "type"


def _as_type(node: tuple) -> tuple:
    if node[0] == "ident":
        return ("named", node[1])
    if node[0] == "type":
        return node[1]
    return ("named", f"{node[1][1]}.{node[2]}")


_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
            "\\": "\\", "'": "'", '"': '"'}


def go_string(literal: str) -> str:
    """The value of a Go string literal (raw or interpreted)."""
    if literal.startswith("`"):
        return literal[1:-1].replace("\r", "")
    body, out, i = literal[1:-1], [], 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif nxt in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[nxt]
            out.append(chr(int(body[i + 2:i + 2 + width], 16)))
            i += 2 + width
        else:
            out.append(chr(int(body[i + 1:i + 4], 8)))
            i += 4
    return "".join(out)


def parse_package(texts: list[str]) -> Package:
    pkg = Package()
    for text in texts:
        Parser(text).file(pkg)
    return pkg
