"""The public names of ``cfgpatch`` (and of every sub-package's ``__all__``) stay what
they are after every submodule has been imported: a submodule loaded later (for
example ``cfgpatch.rebase`` by a stale-base ``apply`` inside ``run``) must not
replace a public function of the same name."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import types

import pytest

import cfgpatch

#: One call per public function of ``cfgpatch.__all__``, with its expected answer.
CALLS = {
    "apply_patch": (({"a": 1}, [{"op": "replace", "path": "/a", "value": 2}]), {"a": 2}),
    "apply_merge_patch": (({"a": 1, "b": 2}, {"b": None}), {"a": 1}),
    "canonical": (({"b": 1, "a": [1.0]},), '{"a":[1.0],"b":1}'),
    "create_merge_patch": (({"a": 1, "b": 2}, {"a": 1}), {"b": None}),
    "diff": (({"a": 1}, {"a": 2}), [{"op": "replace", "path": "/a", "value": 2}]),
    "equal": ((1, 1.0), False),
    "escape_token": (("a/b~c",), "a~1b~0c"),
    "format_pointer": ((["a/b", "0"],), "/a~1b/0"),
    "merge": (({"a": 1, "b": 1}, {"a": 2, "b": 1}, {"a": 1, "b": 3}), {"a": 2, "b": 3}),
    "parse": (('{"a":1.0}',), {"a": 1.0}),
    "parse_pointer": (("/a~1b/0",), ["a/b", "0"]),
    "rebase": (({"a": 1, "b": 1}, {"a": 1, "b": 2}, [{"op": "replace", "path": "/a", "value": 5}]),
               [{"op": "replace", "path": "/a", "value": 5}]),
    "run": (([["put", "x", "{}"], ["get", "x"]],), [1, "{}"]),
}


def _all_submodules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(cfgpatch.__path__, "cfgpatch."):
        if info.name.rsplit(".", 1)[-1] == "__main__":
            continue  # running it would start the command line
        names.append(info.name)
    return names


def _packages() -> list[types.ModuleType]:
    return [cfgpatch] + [sys.modules[n] for n in _all_submodules()
                         if n in sys.modules and hasattr(sys.modules[n], "__path__")]


@pytest.fixture(scope="module")
def everything_imported():
    for name in _all_submodules():
        importlib.import_module(name)


def test_every_public_name_is_called_or_inspected(everything_imported):
    for name in cfgpatch.__all__:
        value = getattr(cfgpatch, name)
        assert not isinstance(value, types.ModuleType), f"cfgpatch.{name} is a module"
        if name in CALLS:
            args, expected = CALLS[name]
            assert value(*args) == expected, name
        elif isinstance(value, type) and issubclass(value, Exception):
            assert issubclass(value, cfgpatch.CfgPatchError), name
            assert isinstance(value("x").code, str), name
        elif name == "Service":
            service = value()
            assert service.put("d", "[1]") == 1 and service.get("d") == "[1]"
        else:
            raise AssertionError(f"cfgpatch.{name} is neither called nor inspected here: add it")


def test_no_sub_package_public_name_is_shadowed_by_a_submodule(everything_imported):
    for package in _packages():
        for name in getattr(package, "__all__", ()):
            value = getattr(package, name)
            assert not isinstance(value, types.ModuleType), \
                f"{package.__name__}.{name} is the submodule, not the public name"


def test_rebase_stays_callable_after_a_stale_base_apply_in_a_fresh_process():
    code = (
        "import cfgpatch\n"
        "r = cfgpatch.run([['put','c','{\"a\":1}'], ['apply','c','[]'],"
        " ['apply','c','[{\"op\":\"replace\",\"path\":\"/a\",\"value\":3}]',1]])\n"
        "assert r == [1, 2, 3], r\n"
        "import cfgpatch.rebasing, cfgpatch.diffing\n"
        "print(cfgpatch.rebase({'a':1},{'a':1},[]), cfgpatch.diff({'a':1},{'a':2}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] [{'op': 'replace', 'path': '/a', 'value': 2}]"


def test_the_modules_behind_diff_and_rebase_have_names_of_their_own():
    import cfgpatch.diffing as diffing
    import cfgpatch.rebasing as rebasing

    assert isinstance(diffing, types.ModuleType) and isinstance(rebasing, types.ModuleType)
    assert callable(cfgpatch.diff) and not isinstance(cfgpatch.diff, types.ModuleType)
    for shadow in ("cfgpatch.diff", "cfgpatch.rebase"):
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module(shadow)


def test_the_kube_api_imports_in_a_fresh_process_without_loading_the_heavy_parts():
    code = (
        "import sys\n"
        "from cfgpatch.kube import patch, apply, diff, upgrade, read, dump\n"
        "heavy = [m for m in ('cfgpatch.kube.kustomize.build', 'cfgpatch.lint.linter',"
        " 'cfgpatch.kube.ssa') if m in sys.modules]\n"
        "from cfgpatch.kube import build, lint, server_side_apply, update\n"
        "print(heavy, all(map(callable, (patch, build, apply, diff, upgrade, read, dump,"
        " lint, server_side_apply, update))))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[] True"


def test_every_name_of_the_kube_api_resolves_to_what_it_documents():
    import dataclasses

    import cfgpatch.kube as kube
    from cfgpatch.records import is_record

    for name in kube.__all__:
        value = getattr(kube, name)
        assert not isinstance(value, types.ModuleType), name
        if isinstance(value, type) and issubclass(value, Exception):
            assert issubclass(value, cfgpatch.CfgPatchError), name
        elif isinstance(value, type) and name.endswith(("Result", "Outcome", "Object")):
            assert dataclasses.is_dataclass(value) or is_record(value), name
        elif name != "PATCH_TYPES":
            assert callable(value) and value.__doc__, f"cfgpatch.kube.{name} is undocumented"
    with pytest.raises(AttributeError):
        kube.no_such_name  # noqa: B018
