"""A field given the wrong shape on both sides: the built-in table and ``--schema`` agree
with kubectl's compiled types.

``tests/data/kube/schema-shapes/cases.jsonl`` is recorded by
``scripts/record_kube_schema_shapes.py`` from kubectl 1.32 (1.27 and 1.33 alike): every
field reachable through structs from Deployment, Service and CronJob, given a list, a
map, a map one level deeper or a list one level deeper in both the object and the patch.
Each case is replayed three ways through ``cfgpatch kube patch``:

* with the built-in table;
* with ``--schema``, an OpenAPI v3 document of the same types written the way Kubernetes
  publishes them (``"default": {}`` on struct fields that are Go values);
* with ``--schema``, the same document with the API types renamed into a namespace no
  compiled type has (so only the document speaks: struct fields without ``default`` are
  pointers), the object's apiVersion renamed alike.

The three must give kubectl's exit code and standard output, and standard error starting
with kubectl's.  The only exception is written down (:func:`undecidable`): with nothing
but a document, a scalar field cannot be told a Go pointer from a value (Kubernetes
publishes no default for either when ``omitempty``), nor can a field of a type whose JSON
form is a scalar (``IntOrString``, ``Time``); so a list given on both sides to such a
pointer (``spec.replicas``, ``maxSurge``, ``lastScheduleTime``) is refused as a value's
would be (kubectl, which knows the pointer, replaces it), and one level further down the
error names ``struct`` where kubectl names ``ptr``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path

import pytest

from cfgpatch.cli import main
from cfgpatch.kube.schema.node import builtin_schema
from conftest import require
from kube_openapi_support import openapi_document

DATA = Path(__file__).resolve().parent / "data" / "kube" / "schema-shapes"
PREFIX = "io.example.api."


def load_cases() -> list[dict]:
    lines = (DATA / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


CASES = load_cases()


def renamed(api_version: str) -> str:
    group, _, version = api_version.rpartition("/")
    return f"{group or 'core'}.example.com/{version}"


@cache
def documents() -> tuple[str, str]:
    """(the document with Kubernetes' names, the one with the API types renamed)."""
    table = builtin_schema().table
    kinds = sorted({(c["api_version"], c["kind"]) for c in CASES})
    keyed = [(av, kind, table["kinds"][av][kind]) for av, kind in kinds]
    real = openapi_document(table, keyed)
    other = openapi_document(table, [(renamed(av), kind, key) for av, kind, key in keyed],
                             prefix=PREFIX)
    return json.dumps(real), json.dumps(other)


def run_cfgpatch(object_text: str, patch: str, schema: str | None) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "obj.json").write_text(object_text, encoding="utf-8")
        extra = []
        if schema is not None:
            (Path(folder) / "openapi.json").write_text(schema, encoding="utf-8")
            extra = ["--schema", "openapi.json"]
        out, err = io.StringIO(), io.StringIO()
        here = os.getcwd()
        os.chdir(folder)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main(["kube", "patch", "--local", "-f", "obj.json", "--type",
                             "strategic", "-p", patch, "-o", "json", *extra])
        finally:
            os.chdir(here)
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "exit_code": code}


def assert_agrees(ours: dict, kubectl: dict) -> None:
    assert ours["exit_code"] == kubectl["exit_code"], (ours["stderr"], kubectl["stderr"])
    assert ours["stdout"] == kubectl["stdout"]
    assert ours["stderr"].startswith(kubectl["stderr"]), ours["stderr"]
    if kubectl["exit_code"] == 0:
        assert ours["stderr"] == kubectl["stderr"]


OPAQUE = ("resource.Quantity", "meta/v1.Time", "meta/v1.MicroTime", "intstr.IntOrString",
          "meta/v1.Duration", "meta/v1.FieldsV1", "runtime.RawExtension")
KEPT = ("meta/v1.", "resource.", "intstr.", "runtime.")  # apimachinery keeps its names


def undecidable(case: dict) -> bool:
    """Whether the path goes through a field that only Go's types can call a pointer: a
    pointer to a scalar or to a struct with a scalar JSON form (``spec.replicas``,
    ``maxSurge``, ``lastScheduleTime``) in an API type the renamed document describes."""
    types = builtin_schema().table["types"]
    key = builtin_schema().table["kinds"][case["api_version"]][case["kind"]]
    for step in case["path"].split("."):
        spec = types.get(key, {}).get("fields", {}).get(step)
        if spec is None:
            return False
        expr = spec if isinstance(spec, str) else spec[0]
        target = expr.lstrip("*")
        if (expr.startswith("*") and not key.startswith(KEPT)
                and (target not in types or target in OPAQUE)):
            return True
        key = target
    return False


def test_recording_covers_every_shape() -> None:
    assert len(CASES) > 800
    assert {c["shape"] for c in CASES} == {"list", "map", "deep-map", "deep-list"}
    answers = [c["kubectl"]["1.32"]["stderr"] for c in CASES]
    for text in ("error: expected slice or array type, but got: struct",
                 "error: expected slice or array type, but got: ptr",
                 "error: merging an object in json but data type is not struct, instead is: slice",
                 "error: merging an object in json but data type is not struct, instead is: map",
                 "error: merging an object in json but data type is not struct, instead is: str",
                 "error: unable to find api field in struct"):
        assert any(answer.startswith(text) for answer in answers), text
    accepted_lists = [c for c in CASES if c["shape"] == "list"
                      and c["kubectl"]["1.32"]["exit_code"] == 0]
    assert any(c["path"] == "spec.selector" for c in accepted_lists)
    assert all(set(c["kubectl"]) | set(c["same_in"]) == {"1.32", "1.27", "1.33"}
               for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_builtin_table_matches_kubectl(case: dict) -> None:
    assert_agrees(run_cfgpatch(case["object"], case["patch"], None), case["kubectl"]["1.32"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_openapi_document_matches_kubectl(case: dict) -> None:
    assert_agrees(run_cfgpatch(case["object"], case["patch"], documents()[0]),
                  case["kubectl"]["1.32"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_document_of_unknown_types_matches_kubectl(case: dict) -> None:
    old, new = f'"apiVersion": "{case["api_version"]}"', f'"apiVersion": "{renamed(case["api_version"])}"'
    ours = run_cfgpatch(case["object"].replace(old, new), case["patch"], documents()[1])
    kubectl = dict(case["kubectl"]["1.32"])
    kubectl["stdout"] = kubectl["stdout"].replace(old, new)
    if case["shape"] == "list" and undecidable(case):
        assert ours["exit_code"] == 1
        assert ours["stderr"].startswith("error: expected slice or array type, but got: ")
        assert kubectl["exit_code"] == 0 or kubectl["stderr"].startswith(
            "error: expected slice or array type, but got: ptr")
        return
    assert_agrees(ours, kubectl)


def test_a_pointer_to_a_struct_takes_a_list_on_both_sides() -> None:
    """The issue's case: spec.selector (*LabelSelector) given [1] and [2]: kubectl replaces
    the list; the document, which shows selector without a default, agrees."""
    case = next(c for c in CASES if c["id"] == "Deployment-spec.selector-list")
    assert json.loads(case["kubectl"]["1.32"]["stdout"])["spec"]["selector"] == [2]
    for schema in documents():
        obj = case["object"].replace('"apps/v1"', '"apps.example.com/v1"') if (
            schema is documents()[1]) else case["object"]
        out = run_cfgpatch(obj, case["patch"], schema)
        assert out["exit_code"] == 0, out["stderr"]
        assert json.loads(out["stdout"])["spec"]["selector"] == [2]
    value = next(c for c in CASES if c["id"] == "Deployment-spec.strategy-list")
    assert value["kubectl"]["1.32"]["stderr"].startswith(
        "error: expected slice or array type, but got: struct")


def test_live_shapes_match_kubectl() -> None:
    """A sample of the recording asked again of kubectl 1.32, 1.27 and 1.33: each answers
    as recorded, and the built-in table and the document as 1.32 does now."""
    found = shutil.which("kubectl")
    folder = Path(os.path.realpath(found)).parent if found else Path(".")
    binaries = {v: folder / f"kubectl.{v}" for v in ("1.32", "1.27", "1.33")}
    require(all(b.exists() for b in binaries.values()),
            "kubectl.1.27, 1.32 and 1.33 next to the kubectl on PATH")
    failures = []
    for case in CASES[::19]:
        for version, binary in binaries.items():
            with tempfile.TemporaryDirectory() as scratch:
                (Path(scratch) / "obj.json").write_text(case["object"], encoding="utf-8")
                argv = [case["patch"] if a == "{PATCH}" else a for a in case["argv"]]
                proc = subprocess.run([str(binary), *argv], cwd=scratch, capture_output=True,
                                      text=True, timeout=120)
            live = {"exit_code": proc.returncode, "stdout": proc.stdout,
                    "stderr": proc.stderr}
            recorded = case["kubectl"].get(version, case["kubectl"]["1.32"])
            if live != recorded:
                failures.append(f"kubectl {version} drifted from the recording: {case['id']}")
            if version == "1.32":
                for schema in (None, documents()[0]):
                    try:
                        assert_agrees(run_cfgpatch(case["object"], case["patch"], schema), live)
                    except AssertionError as err:
                        failures.append(f"{case['id']} ({'--schema' if schema else 'built-in'})"
                                        f": {err}")
    assert not failures, "\n".join(failures[:20])
