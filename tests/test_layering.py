"""The dependency rules of the package, checked by reading the imports.

* The core (everything outside ``server/``, ``cli/``, ``store/sqlite.py``,
  ``store/postgres.py``, ``store/postgres_batch.py`` and ``web/site.py``) imports only the standard library,
  except the YAML readers and printers of ``kube/io/`` and the page's Python side
  (``web/``), which read YAML with PyYAML's pure-Python part: the core also runs in the
  browser under Pyodide.
* Nothing in the core imports I/O or process machinery Pyodide lacks
  (``sqlite3``, ``threading``, ``socket``, ``asyncio``, ``subprocess``).
* Dependencies point one way: values -> pointer -> patch algorithms ->
  diff/rebase -> service -> cli/server/web.  No lower module imports a higher one.
* Inside ``kube/`` the sub-packages are layered too: go and problems (the readers' problem
  records) -> io -> compat (the Go tools' words for those records) -> schema -> engine and
  ssa -> kustomize and views -> explain -> patcher (the facade ``kube/__init__.py``
  re-exports the public functions).  The facade alone also re-exports ``lint`` (the
  linter reads kube, so it sits above it; the facade imports it on first use, and the
  linter imports kube's modules, never the facade, so there is no cycle).
* No import cycle anywhere in ``src/`` (imports inside functions included; those under
  ``if TYPE_CHECKING:`` never run and are left out).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "cfgpatch"
OUTSIDE_CORE = ("server/", "cli/", "store/sqlite.py", "store/postgres.py",
                "store/postgres_batch.py",
                "store/group_commit.py",  # threads of the durable stores (never under Pyodide)
                "web/site.py", "__main__.py",
                "preview/")
#: Modules that may use PyYAML (its pure-Python part ships with the page).
YAML_READERS = ("kube/io/reader.py", "kube/io/yamlnodes.py", "kube/io/writer.py",
                "kube/io/folded.py",
                "kube/io/yamlprint.py", "kube/io/patch_text.py", "web/")
#: The page's Python side may guard its caches with a lock (Pyodide has the module; the
#: server calls the same code from its thread pool).
THREAD_SAFE = ("web/",)
FORBIDDEN_IN_CORE = {"sqlite3", "threading", "socket", "asyncio", "subprocess", "multiprocessing"}

#: Lower layers first: a module may import only modules of its own layer or below.
LAYERS = [
    {"errors", "gc_pause", "jsonlocate", "records", "record_inits", "protocols", "lazy_pattern", "package_data",
     "context_scope"},
    {"jsonvalue"},
    {"pointer"},
    {"jsonpatch", "mergepatch", "lcs", "text_cache", "replay", "spellings"},
    {"moves", "diffing", "document_reader"},
    {"rebasing", "fixtures", "kube", "guards", "preconditions", "limits"},
    {"lint"},  # cfgpatch lint: reads kube (and the page may run it: standard library only)
    {"preview"},  # kube preview: runs git, so outside the core; reads kube and lint
    {"store"},
    {"retention", "version_cache"},
    {"lifecycle"},
    {"write_steps"},
    {"service", "contract"},
    {"web"},
    {"server", "cli"},
]

#: The sub-layers of ``kube/``, lower first (``kube/__init__.py`` is the facade over all).
KUBE_LAYERS = [{"go", "problems"}, {"io"}, {"compat"}, {"schema"}, {"engine", "ssa"}, {"kustomize", "views"}, {"explain"},
               {"patcher", "objects", "applying"}]
#: Higher layers a facade may reach (``cfgpatch.kube.lint`` is the linter's entry point).
FACADE_REACHES = {"kube/__init__.py": {"lint"}}


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if "/static/" in "/" + rel:
            continue
        yield rel, ast.parse(path.read_text(encoding="utf-8"))


def _imports(tree: ast.AST, rel: str):
    """(absolute top-level name, first cfgpatch sub-package) for every import."""
    package_parts = ["cfgpatch", *rel.split("/")[:-1]]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split(".")[0], None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_parts[: len(package_parts) - node.level + 1]
                parts = base + (node.module.split(".") if node.module else [])
                if len(parts) == 1:  # "from . import x" at the top of the package
                    for alias in node.names:
                        yield "cfgpatch", alias.name
                else:
                    yield "cfgpatch", parts[1]
            elif node.module:
                top = node.module.split(".")
                yield top[0], top[1] if top[0] == "cfgpatch" and len(top) > 1 else None


def _layer(name: str) -> int:
    for index, names in enumerate(LAYERS):
        if name in names:
            return index
    raise AssertionError(f"module {name!r} is in no layer: add it to LAYERS")


@pytest.mark.parametrize("rel,tree", list(_modules()), ids=lambda v: v if isinstance(v, str) else "")
def test_core_imports_only_the_standard_library(rel, tree):
    if rel.startswith(OUTSIDE_CORE):
        return
    allowed = set(sys.stdlib_module_names) | {"cfgpatch"}
    if rel.startswith(YAML_READERS):
        allowed.add("yaml")
    forbidden = FORBIDDEN_IN_CORE - ({"threading"} if rel.startswith(THREAD_SAFE) else set())
    for top, _ in _imports(tree, rel):
        assert top in allowed, f"{rel} imports {top}, which is not in the standard library"
        assert top not in forbidden, f"{rel} imports {top}, which Pyodide lacks"


@pytest.mark.parametrize("rel,tree", list(_modules()), ids=lambda v: v if isinstance(v, str) else "")
def test_dependencies_point_one_way(rel, tree):
    own = rel.split("/")[0].removesuffix(".py")
    if own in ("__init__", "__main__"):
        return
    mine = _layer(own)
    for top, sub in _imports(tree, rel):
        if top != "cfgpatch" or sub is None or sub == own:
            continue
        if sub in ("__init__",) or sub in FACADE_REACHES.get(rel, ()):
            continue
        assert _layer(sub) <= mine, f"{rel} ({own}) imports the higher layer {sub}"


def _typing_only(node: ast.AST) -> bool:
    """An ``if TYPE_CHECKING:`` block: its imports never run (annotations only)."""
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING"))


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if _typing_only(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def _targets(tree: ast.AST, rel: str, runtime_only: bool = False):
    """The dotted cfgpatch module every import of ``rel`` names (a package: its __init__);
    ``runtime_only``: leaving out the imports made for annotations only."""
    package_parts = ["cfgpatch", *rel.split("/")[:-1]]
    for node in (_runtime_nodes(tree) if runtime_only else ast.walk(tree)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "cfgpatch":
                    yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_parts[: len(package_parts) - node.level + 1]
                module = ".".join(base + (node.module.split(".") if node.module else []))
            elif node.module and node.module.split(".")[0] == "cfgpatch":
                module = node.module
            else:
                continue
            for alias in node.names:  # "from pkg import sub" names the sub-module if it is one
                yield f"{module}.{alias.name}" if _is_module(f"{module}.{alias.name}") else module


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _module_name(rel: str) -> str:
    return "cfgpatch." + rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _kube_layer(rel: str) -> int | None:
    parts = rel.split("/")
    if parts[0] != "kube" or len(parts) < 2 or parts[1] == "__init__.py":
        return None
    name = parts[1].removesuffix(".py")
    for index, names in enumerate(KUBE_LAYERS):
        if name in names:
            return index
    raise AssertionError(f"kube/{name} is in no kube layer: add it to KUBE_LAYERS")


@pytest.mark.parametrize("rel,tree", [m for m in _modules() if m[0].startswith("kube/")],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_kube_sub_packages_point_one_way(rel, tree):
    mine = _kube_layer(rel)
    if mine is None:
        return
    for target in _targets(tree, rel):
        parts = target.split(".")
        if parts[:2] != ["cfgpatch", "kube"]:
            continue
        assert len(parts) > 2, f"{rel} imports the kube facade; import the module instead"
        theirs = _kube_layer("/".join(parts[1:3]) + ("" if len(parts) > 3 else ".py"))
        assert theirs is not None and theirs <= mine, \
            f"{rel} imports {target}, a higher kube layer"


def test_no_import_cycles():
    graph = {_module_name(rel): set(_targets(tree, rel, runtime_only=True))
             for rel, tree in _modules()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, path: list[str]) -> None:
        state[name] = 1
        for target in sorted(graph.get(name, ())):
            if target == name or target not in graph:
                continue
            if state.get(target) == 1:
                cycle = path[path.index(target):] + [target] if target in path else [name, target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target, [*path, target])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])


def test_imports_for_annotations_only_are_left_out_of_the_cycle_check():
    tree = ast.parse("TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from .app import Api\n"
                     "else:\n    from .inputs import etag\nfrom .auth import AuthError\n")
    targets = set(_targets(tree, "server/history.py", runtime_only=True))
    assert targets == {"cfgpatch.server.inputs", "cfgpatch.server.auth"}
    assert "cfgpatch.server.app" in set(_targets(tree, "server/history.py"))
