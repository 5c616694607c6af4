"""Run a kustomize build test (api/krusty) read by :mod:`krusty_go` and collect its
builds: for every ``th.Run``/``th.RunWithErr`` the files the test's harness holds at
that moment, the directory built and the options.

The harness is modelled as kustomize's test harness is: ``WriteK``/``WriteC`` write a
kustomization file (with its two header lines) in a folder, ``WriteF`` a file,
``GetRoot()`` is the root.  Assertions (``th.Assert...``, ``require``, ``assert``,
``t.Fatal``) are not checked: the oracle is kubectl, not the test's expectation.  A
test that skips itself, builds Go or exec plugins, or sets an option ``kubectl
kustomize`` has no flag for is named as such (:class:`Unsupported`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from krusty_go import Package, Unsupported

K_HEADER = "\napiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
C_HEADER = "\napiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n"


class Skipped(Exception):
    """The test skips itself (``t.Skip``)."""


@dataclass
class Build:
    name: str
    files: dict[str, str | bytes]     # path relative to the root -> content
    directory: str            # relative to the root ("" for the root)
    plugins: bool             # MakeOptionsPluginsEnabled (helm enabled, alpha plugins)
    load_restrictor: str
    expect_error: bool


@dataclass
class Options:
    plugins: bool = False
    load_restrictor: str = "LoadRestrictionsRootOnly"

    def set(self, name: str, value: Any) -> None:
        if name == "LoadRestrictions" and isinstance(value, str):
            self.load_restrictor = value
        elif name == "AddManagedbyLabel" and value is False:
            pass
        else:
            raise Unsupported(f"option {name} (kubectl kustomize has no flag for it)")


class PluginConfig:
    """The enhanced harness's plugin configuration: built-in plugins are linked in
    kubectl, so only that setting is followed."""

    def set(self, name: str, value: Any) -> None:
        if name != "BpLoadingOptions" or value != ("qualified", "types", "BploUseStaticallyLinked"):
            raise Unsupported(f"plugin configuration {name}")


class Opaque:
    """A value the test only asserts on (a built ResMap, an error): absorbs calls."""


@dataclass
class Harness:
    run: Runner
    files: dict[str, str | bytes] = field(default_factory=dict)

    def path(self, path: Any) -> str:
        if not isinstance(path, str):
            raise Unsupported("a path that is not a string")
        return posixpath.normpath(posixpath.join("/", path)).lstrip("/")

    def write(self, path: Any, content: Any, header: str | None) -> None:
        if isinstance(content, list) and all(isinstance(b, int) for b in content):
            content = bytes(content)
        if not isinstance(content, (str, bytes)) or header and isinstance(content, bytes):
            raise Unsupported("file content that is not a string")
        target = self.path(path)
        if header is not None:
            target = posixpath.join(target, "kustomization.yaml").lstrip("/")
            content = header + content
        self.files[target] = content

    def build(self, path: Any, options: Any, expect_error: bool) -> Opaque:
        if not isinstance(options, Options):
            raise Unsupported("options not made by the harness")
        self.run.builds.append(Build(self.run.case_name(), dict(self.files), self.path(path),
                                     options.plugins, options.load_restrictor, expect_error))
        return Opaque()

    def method(self, name: str, args: list) -> Any:
        if name in ("WriteK", "WriteC", "WriteF"):
            header = {"WriteK": K_HEADER, "WriteC": C_HEADER}.get(name)
            self.write(args[0], args[1], header)
            return None
        if name in ("Run", "RunWithErr"):
            return self.build(args[0], args[1], name == "RunWithErr")
        if name in ("MakeDefaultOptions", "MakeOptionsPluginsDisabled"):
            return Options()
        if name == "MakeOptionsPluginsEnabled":
            return Options(plugins=True)
        if name == "GetRoot":
            return "/"
        if name == "MkDir":
            return "/" + self.path(args[0])
        if name in ("Reset", "ErrIfNoHelm", "PrepBuiltin", "GetT") or name.startswith("Assert"):
            return self if name == "PrepBuiltin" else None
        if name == "GetPluginConfig":
            return PluginConfig()
        if name == "GetFSys":
            return FileSystem(self)
        raise Unsupported(f"harness method {name}")


@dataclass
class FileSystem:
    harness: Harness

    def method(self, name: str, args: list) -> Any:
        if name == "WriteFile":
            self.harness.write(args[0], args[1], None)
            return None
        if name in ("MkdirAll", "Mkdir"):
            return None
        raise Unsupported(f"file system method {name}")


@dataclass
class Closure:
    params: list[str]
    body: tuple
    env: dict[str, Any]
    results: list[str] = field(default_factory=list)


class Return(Exception):
    def __init__(self, values: list) -> None:
        self.values = values


def go_format(fmt: str, args: list) -> str:
    values = iter(args)

    def one(m: re.Match) -> str:
        verb = m.group(2)
        if verb == "%":
            return "%"
        value = next(values)
        if verb == "q":
            return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(value, bool):
            return "true" if value else "false"
        return str(value)
    return re.sub(r"%([-+# 0-9.]*)([a-zA-Z%])", one, fmt)


class Runner:
    """Runs one test function; ``builds`` collects what it asked kustomize to build."""

    def __init__(self, pkg: Package,
                 read_testdata: Callable[[str], dict[str, bytes]]) -> None:
        self.pkg = pkg
        self.read_testdata = read_testdata
        self.builds: list[Build] = []
        self.names: list[str] = []
        self.globals: dict[str, Any] = {}

    def case_name(self) -> str:
        return "/".join(self.names)

    def test(self, name: str) -> list[Build]:
        func = self.pkg.funcs[name]
        if func[2][0] == "unsupported":
            raise Unsupported(func[2][1])
        self.names = [name]
        self.call(Closure(func[1], func[2], {}, func[3]), ["t"])
        return self.builds

    # -- statements
    def call(self, fn: Any, args: list) -> Any:
        if isinstance(fn, Closure):
            env = _Scope(fn.env)
            env.update({name: None for name in fn.results})
            env.update(zip(fn.params, args))
            try:
                self.block(fn.body, env)
            except Return as ret:
                values = ret.values or [env[name] for name in fn.results]
                return values[0] if len(values) == 1 else values
            return None
        if callable(fn):
            return fn(args)
        raise Unsupported(f"calling {type(fn).__name__}")

    def block(self, node: tuple, env: dict) -> None:
        if node[0] == "unsupported":
            raise Unsupported(node[1])
        local = _Scope(env)
        for stmt in node[1]:
            self.stmt(stmt, local)

    def stmt(self, node: tuple, env: dict) -> None:
        kind = node[0]
        if kind == "expr":
            self.eval(node[1], env)
        elif kind == "assign":
            self.assign(node[1], node[2], [self.eval(v, env) for v in node[3]], env)
        elif kind == "var":
            values = [self.eval(v, env) for v in node[3]] if node[3] else \
                [zero(node[2], self.pkg) for _ in node[1]]
            self.assign([("ident", n) for n in node[1]], ":=", values, env)
        elif kind == "block":
            self.block(node, env)
        elif kind == "return":
            raise Return([self.eval(v, env) for v in node[1]])
        elif kind == "defer":
            pass   # deferred calls only clean up (th.Reset)
        elif kind == "if":
            self._if(node, env)
        elif kind == "foreach":
            self._foreach(node, env)
        elif kind == "for":
            self._for(node, env)
        else:
            raise Unsupported(f"statement {kind}")

    def _if(self, node: tuple, env: dict) -> None:
        scope = _Scope(env)
        if node[1]:
            self.stmt(node[1], scope)
        try:
            cond = self.eval(node[2], scope)
        except Unsupported:
            return   # a condition on what was built: an assertion
        if not isinstance(cond, bool):
            return
        if cond:
            self.block(node[3], scope)
        elif node[4] is not None:
            self.stmt(node[4], scope) if node[4][0] == "if" else self.block(node[4], scope)

    def _foreach(self, node: tuple, env: dict) -> None:
        _, lhs, op, expr = node[1]
        seq = self.eval(expr, env)
        if isinstance(seq, dict):
            pairs = sorted(seq.items(), key=lambda kv: str(kv[0]))
        elif isinstance(seq, (list, str)):
            pairs = list(enumerate(seq))
        elif isinstance(seq, Opaque):
            pairs = []
        elif isinstance(seq, int):
            pairs = [(i, i) for i in range(seq)]
        else:
            raise Unsupported("range over a value that is not a map or list")
        for key, value in pairs:
            scope = _Scope(env)
            self.assign(lhs, ":=", [key, value][:len(lhs)], scope)
            self.block(node[2], scope)

    def _for(self, node: tuple, env: dict) -> None:
        scope = _Scope(env)
        if node[1]:
            self.stmt(node[1], scope)
        for _ in range(1000):
            if node[2] is not None and not self.eval(node[2], scope):
                return
            if node[2] is None:
                raise Unsupported("a for loop without a condition")
            self.block(node[4], scope)
            if node[3]:
                self.stmt(node[3], scope)
        raise Unsupported("a loop of more than 1000 rounds")

    def assign(self, lhs: list, op: str, values: list, env: dict) -> None:
        if len(lhs) > 1 and len(values) == 1:
            values = values[0] if isinstance(values[0], list) and op in (":=", "=") else \
                [values[0]] + [None] * (len(lhs) - 1)
        for target, value in zip(lhs, values):
            if op in ("+=", "-="):
                old = self.eval(target, env)
                value = old + value if op == "+=" else old - value
            if target[0] == "ident":
                if target[1] != "_":
                    env.set(target[1], value, op == ":=") if isinstance(env, _Scope) \
                        else env.__setitem__(target[1], value)
            elif target[0] == "sel":
                obj = self.eval(target[1], env)
                if isinstance(obj, (Options, PluginConfig)):
                    obj.set(target[2], value)
                elif isinstance(obj, dict):
                    obj[target[2]] = value
                else:
                    raise Unsupported(f"setting {target[2]}")
            elif target[0] == "index":
                self.eval(target[1], env)[self.eval(target[2], env)] = value
            else:
                raise Unsupported("assignment target")

    # -- expressions
    def eval(self, node: tuple, env: Any) -> Any:
        kind = node[0]
        if kind == "lit":
            return node[1]
        if kind == "ident":
            return self.lookup(node[1], env)
        if kind == "binary":
            return self.binary(node[1], self.eval(node[2], env), node[3], env)
        if kind == "unary":
            value = self.eval(node[2], env)
            if node[1] == "!":
                return not value
            if node[1] == "-":
                return -value
            return value   # & and *: values are shared already
        if kind == "funclit":
            return Closure(node[1], node[2], env, node[3])
        if kind == "composite":
            return self.composite(node[1], node[2], env)
        if kind == "call":
            return self.call_expr(node, env)
        if kind == "sel":
            return self.select(node, env)
        if kind == "index":
            container = self.eval(node[1], env)
            key = self.eval(node[2], env)
            if isinstance(container, dict):
                return container.get(key, "")
            return container[key]
        if kind == "slice":
            value = self.eval(node[1], env)
            low = self.eval(node[2], env) if node[2] else None
            high = self.eval(node[3], env) if node[3] else None
            return value[low:high]
        if kind == "type":
            return ("type", node[1])
        raise Unsupported(f"expression {kind}")

    def binary(self, op: str, left: Any, right_node: tuple, env: Any) -> Any:
        if op == "&&":
            return bool(left) and bool(self.eval(right_node, env))
        if op == "||":
            return bool(left) or bool(self.eval(right_node, env))
        right = self.eval(right_node, env)
        if isinstance(left, Opaque) or isinstance(right, Opaque):
            raise Unsupported("comparing what was built")
        ops: dict[str, Callable[[Any, Any], Any]] = {
            "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
            "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
            "%": lambda a, b: a % b, "/": lambda a, b: a // b}
        if op not in ops:
            raise Unsupported(f"operator {op}")
        return ops[op](left, right)

    def lookup(self, name: str, env: Any) -> Any:
        if isinstance(env, _Scope) and env.has(name):
            return env.get(name)
        if name in ("true", "false"):
            return name == "true"
        if name == "nil":
            return None
        if name in self.globals:
            return self.globals[name]
        if name in self.pkg.values:
            self.globals[name] = self.eval(self.pkg.values[name], {})
            return self.globals[name]
        if name in self.pkg.funcs:
            func = self.pkg.funcs[name]
            return Closure(func[1], func[2], {}, func[3])
        if name in ("string", "byte"):
            return _string
        if name == "len":
            return lambda args: len(args[0]) if args[0] is not None else 0
        if name == "append":
            return lambda args: list(args[0] or []) + _spread(args[1:])
        if name in self.pkg.types:
            return lambda args: args[0]   # a conversion
        if name == "t":
            return "t"
        raise Unsupported(f"name {name}")

    def select(self, node: tuple, env: Any) -> Any:
        base = node[1]
        if base[0] == "ident" and not (isinstance(env, _Scope) and env.has(base[1])) \
                and base[1] not in self.pkg.values and base[1] not in self.pkg.funcs:
            return self.qualified(base[1], node[2])
        obj = self.eval(base, env)
        if isinstance(obj, dict):
            return obj.get(node[2])
        if isinstance(obj, Options):
            return getattr(obj, node[2], None) if node[2] != "PluginConfig" else Opaque()
        if isinstance(obj, Opaque):
            return obj
        if isinstance(obj, Harness) and node[2] == "Harness":
            return obj
        raise Unsupported(f"field {node[2]}")

    def qualified(self, pkg: str, name: str) -> Any:
        constants = {("types", "LoadRestrictionsNone"): "LoadRestrictionsNone",
                     ("types", "LoadRestrictionsRootOnly"): "LoadRestrictionsRootOnly",
                     ("filesys", "Separator"): "/"}
        if (pkg, name) in constants:
            return constants[(pkg, name)]
        if pkg == "t" or pkg in ("require", "assert"):
            return ("method", pkg, name)
        return ("qualified", pkg, name)

    def call_expr(self, node: tuple, env: Any) -> Any:
        fn_node, arg_nodes = node[1], node[2]
        args = []
        for a in arg_nodes:
            args.extend(self.eval(a[1], env) or []) if a[0] == "spread" \
                else args.append(self.eval(a, env))
        if fn_node[0] == "sel":
            target = self.select(fn_node, env) if fn_node[1][0] == "ident" and not (
                isinstance(env, _Scope) and env.has(fn_node[1][1])) else None
            if isinstance(target, tuple) and target[0] in ("method", "qualified"):
                return self.library(target[1], target[2], args)
            obj = self.eval(fn_node[1], env)
            if obj == "t":
                return self.testing(fn_node[2], args)
            if isinstance(obj, (Harness, FileSystem)):
                return obj.method(fn_node[2], args)
            if isinstance(obj, Opaque) or obj is None or isinstance(obj, tuple):
                return Opaque()   # what was built, or its error: only asserted on
            raise Unsupported(f"method {fn_node[2]} of {type(obj).__name__}")
        fn = self.eval(fn_node, env)
        if isinstance(fn, tuple) and fn[0] == "type":
            return args[0]
        return self.call(fn, args)

    def testing(self, name: str, args: list) -> Any:
        if name in ("Skip", "Skipf", "SkipNow"):
            raise Skipped(go_format(str(args[0]), args[1:]) if args else "skipped")
        if name == "Run":
            self.names.append(str(args[0]).replace(" ", "_"))
            try:
                self.call(args[1], ["t"])
            finally:
                self.names.pop()
            return True
        if name in ("Helper", "Fatal", "Fatalf", "Error", "Errorf", "Log", "Logf", "Parallel"):
            return None
        raise Unsupported(f"t.{name}")

    def library(self, pkg: str, name: str, args: list) -> Any:
        if pkg in ("require", "assert"):
            return True
        if pkg == "kusttest_test" and name in ("MakeHarness", "MakeEnhancedHarness",
                                               "MakeEnhancedHarnessWithTmpRoot"):
            return Harness(self)
        if pkg == "fmt" and name in ("Sprintf", "Errorf"):
            return go_format(args[0], args[1:])
        if pkg == "fmt" and name == "Sprint":
            return "".join(str(a) for a in args)
        if pkg == "filepath" and name == "Join":
            return posixpath.normpath(posixpath.join(*[a for a in args if a])) if any(args) else ""
        if pkg == "konfig" and name == "DefaultKustomizationFileName":
            return "kustomization.yaml"
        if pkg == "konfig" and name == "RecognizedKustomizationFileNames":
            return ["kustomization.yaml", "kustomization.yml", "Kustomization"]
        if pkg == "krusty" and name == "MakeDefaultOptions":
            return Options()
        if pkg == "openapi" and name == "ResetOpenAPI":
            return None   # each build is its own process
        if pkg == "strings":
            if any(isinstance(a, Opaque) for a in args):
                raise Unsupported("a test of what was built")
            return _strings(name, args)
        if pkg == "os" and name == "ReadFile":
            found = self.read_testdata(posixpath.normpath(args[0]))
            if list(found) != [""]:
                raise Unsupported(f"reading {args[0]}")
            return [found[""], None]
        if pkg == "openapi" and name == "GetSchemaVersion":
            return Opaque()
        if pkg == "copyutil" and name == "CopyDir":
            for rel, text in self.read_testdata(args[1]).items():
                args[0].harness.write(posixpath.join(args[2], rel), text, None)
            return None
        raise Unsupported(f"{pkg}.{name}")

    def composite(self, ctype: tuple | None, elems: list, env: Any) -> Any:
        ctype = resolve(ctype, self.pkg)
        if ctype is None:
            raise Unsupported("a literal of unknown type")
        if ctype[0] == "map":
            return {self.eval(k, env): self.element(ctype[2], v, env) for k, v in elems}
        if ctype[0] == "slice":
            return [self.element(ctype[1], v, env) for _, v in elems]
        if ctype[0] == "struct":
            out = {name: zero(ftype, self.pkg) for name, ftype in ctype[1]}
            types = dict(ctype[1])
            for key, value in elems:
                if key is None or key[0] != "ident":
                    raise Unsupported("a struct literal without field names")
                out[key[1]] = self.element(types.get(key[1]), value, env)
            return out
        if ctype[0] == "ptr":
            return self.composite(ctype[1], elems, env)
        raise Unsupported(f"a literal of type {ctype[1] if len(ctype) > 1 else ctype}")

    def element(self, etype: tuple | None, node: tuple, env: Any) -> Any:
        if node[0] == "composite" and node[1] is None:
            return self.composite(etype, node[2], env)
        return self.eval(node, env)


def _string(args: list) -> Any:
    value = args[0]
    if isinstance(value, (str, bytes, Opaque)):
        return value
    if isinstance(value, list):
        return bytes(value)
    return chr(value)


def _spread(values: list) -> list:
    return list(values)


def _strings(name: str, args: list) -> Any:
    table: dict[str, Callable[[list], Any]] = {
        "Contains": lambda a: a[1] in a[0], "HasPrefix": lambda a: a[0].startswith(a[1]),
        "HasSuffix": lambda a: a[0].endswith(a[1]), "TrimSpace": lambda a: a[0].strip(),
        "ReplaceAll": lambda a: a[0].replace(a[1], a[2]), "Join": lambda a: a[1].join(a[0]),
        "Repeat": lambda a: a[0] * a[1], "TrimPrefix": lambda a: a[0].removeprefix(a[1]),
        "Replace": lambda a: a[0].replace(a[1], a[2], a[3] if a[3] >= 0 else -1)}
    if name not in table:
        raise Unsupported(f"strings.{name}")
    return table[name](args)


def resolve(ctype: tuple | None, pkg: Package) -> tuple | None:
    seen = 0
    while ctype is not None and ctype[0] == "named" and ctype[1] in pkg.types and seen < 10:
        ctype = pkg.types[ctype[1]]
        seen += 1
    return ctype


def zero(ftype: tuple | None, pkg: Package) -> Any:
    ftype = resolve(ftype, pkg)
    if ftype is None:
        return None
    if ftype[0] == "named":
        return {"string": "", "bool": False, "int": 0, "float64": 0.0}.get(ftype[1])
    if ftype[0] == "struct":
        return {name: zero(t, pkg) for name, t in ftype[1]}
    return None


class _Scope(dict):
    """A block's variables, chained to the enclosing block's."""

    def __init__(self, parent: Any) -> None:
        super().__init__()
        self.parent = parent

    def has(self, name: str) -> bool:
        return name in self or (isinstance(self.parent, _Scope) and self.parent.has(name)) \
            or (isinstance(self.parent, dict) and not isinstance(self.parent, _Scope)
                and name in self.parent)

    def get(self, name: str, default: Any = None) -> Any:
        if name in self:
            return self[name]
        if isinstance(self.parent, _Scope):
            return self.parent.get(name)
        return self.parent.get(name, default) if isinstance(self.parent, dict) else default

    def set(self, name: str, value: Any, declare: bool) -> None:
        scope: Any = self
        if not declare:
            while isinstance(scope, _Scope) and name not in scope:
                scope = scope.parent
            if not isinstance(scope, dict):
                scope = self
        scope[name] = value
