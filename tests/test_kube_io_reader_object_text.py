"""How the YAML object file (``-f``) is read, and long keys printed, held to kubectl.

``tests/data/kube/object-text/cases.jsonl`` is recorded by
``scripts/record_kube_object_text.py`` from kubectl 1.32, 1.27 and 1.33 (they agree on
every case): tabs in every position, every character after a backslash in a
double-quoted string, anchors defined twice or holding themselves, ``%YAML``/``%TAG``
directives, ``---`` separators in their many forms, text after ``...``, line ends, and
``-o yaml`` keys around 128 bytes, and files of several objects (each patched and
printed in turn, errors of single objects gathered at the end, a syntax error ending the
reading).  Every case is replayed through ``cfgpatch kube patch`` (no kubectl needed):
same exit code, same standard output, standard error starting with kubectl's.  The live test
runs a sample of the cases, random object texts and random files of several objects
through the installed kubectl binaries (required in CI).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cli_support import assert_agrees, run_kube_in_folder
from conftest import require

DATA = Path(__file__).resolve().parent / "data" / "kube" / "object-text"
VERSIONS = ("1.32", "1.27", "1.33")
#: Cases where a version answers otherwise than 1.32 (the oracle): kubectl 1.33 reads
#: the rest of a JSON stream that stops parsing as YAML (a string, not an object);
#: kubectl 1.27 words the error of printing a key holding U+0085 as YAML with the
#: prefix "error converting JSON to YAML: ".
VERSIONS_DIFFER = {"objects-json-stream-garbage": ["1.27"],
                   "objects-nel-key-second": ["1.33"], "objects-nel-key-first": ["1.33"]}


def load_cases() -> list[dict]:
    lines = (DATA / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


CASES = load_cases()


def run_cfgpatch(case: dict) -> dict:
    """``cfgpatch kube <argv>`` in a scratch folder holding the object as obj.yaml."""
    return run_kube_in_folder({"obj.yaml": case["object"]}, case["argv"])


def test_recording_covers_every_group_and_versions_agree() -> None:
    groups = {case["id"].split("-", 1)[0] for case in CASES}
    assert groups == {"tab", "escape", "anchor", "directive", "separator", "lines", "block",
                      "key", "patch", "objects"}
    assert len(CASES) > 200
    assert all(case["same_in"] == VERSIONS_DIFFER.get(case["id"], ["1.27", "1.33"])
               for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_matches_kubectl(case: dict) -> None:
    assert_agrees(run_cfgpatch(case), case["kubectl"]["1.32"])


def test_several_objects_cover_partial_output_and_gathered_errors() -> None:
    answers = [c["kubectl"]["1.32"] for c in CASES if c["id"].startswith("objects-")]
    assert sum(1 for a in answers if a["exit_code"] == 1 and a["stdout"]) >= 10
    assert sum(1 for a in answers if len(a["stderr"].splitlines()) == 2) >= 4


# ------------------------------------------------------------------------- live


def _binaries() -> dict[str, str]:
    found = shutil.which("kubectl")
    folder = Path(os.path.realpath(found)).parent if found else Path(".")
    return {v: str(folder / f"kubectl.{v}") for v in VERSIONS
            if (folder / f"kubectl.{v}").exists()}


def run_kubectl(kubectl: str, case: dict) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "obj.yaml").write_bytes(case["object"].encode("utf-8"))
        proc = subprocess.run([kubectl, *case["argv"]], cwd=folder, capture_output=True,
                              timeout=120)
    stderr = proc.stderr.decode("utf-8", "surrogateescape")
    if proc.returncode == 2:
        stderr = stderr.splitlines()[0] + "\n" if stderr else ""
    return {"stdout": proc.stdout.decode("utf-8", "surrogateescape"), "stderr": stderr,
            "exit_code": proc.returncode}


FRAGMENTS = ("\t", "\t\t", " \t", "\n\t", "\t#c", " ", "\n", "#", "---", "\n---\n", "...",
             "&v", "*v", "!!str", "!x", "|", "|-", ">", "|2", "-", "- ", ":", ": ", "?", "{",
             "}", "[", "]", ",", '"', "'", "\\", "\\t", "\\/", "\\'", "\\x4",
             "\\U0001F600", "%YAML 1.1\n", "a", "1")
HEAD_TEXT = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"
BASE = HEAD_TEXT + "data:\n  a: x\n  b: &v y\n  c: *v\n  d: |\n    l1\n    l2\n  e: 'q'\n  f: \"d\"\n"


def random_objects(seed: int, count: int) -> list[str]:
    """Object texts near a valid one: one or two fragments inserted into its body."""
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        text = BASE
        for _ in range(rnd.randint(1, 2)):
            at = rnd.randint(len(HEAD_TEXT), len(text))
            text = text[:at] + rnd.choice(FRAGMENTS) + text[at:]
        out.append(text)
    return out


#: Documents and separators for random files of several objects.
DOCUMENTS = (HEAD_TEXT + 'data:\n  x: "1"\n', HEAD_TEXT, HEAD_TEXT + "  namespace: other\n",
             "apiVersion: v1\nmetadata:\n  name: nk\n", "foo\n", "- a\n", "null\n", "# c\n",
             "", HEAD_TEXT + "data:\n  x: [\n", HEAD_TEXT + "data: {a: *nope}\n",
             "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n"
             "  metadata:\n    name: li\n", "apiVersion: v1\nkind: ConfigMapList\nitems: []\n",
             "kind: List\nitems:\n- kind: ConfigMap\n  metadata: {name: q}\n",
             "apiVersion: x.io/v1\nkind: Foo\nmetadata:\n  name: f\n",
             HEAD_TEXT + "data:\n  x: y\n...\n")
SEPARATOR_LINES = ("---\n", "--- # c\n", "---\n---\n", "--- \n")
SEVERAL_PATCHES = (("merge", '{"data":{"y":"2"}}'), ("json", '[{"op":"test","path":"/data/x",'
                   '"value":"1"}]'), ("strategic", '{"metadata":{"labels":{"a":"b"}}}'),
                   ("merge", '{"kind":null}'), ("json", '[{"op":'))


def random_several(seed: int, count: int) -> list[dict]:
    """Files of two to four documents, each with a patch, an output and maybe ``-n``."""
    rnd = random.Random(seed)
    cases = []
    for _ in range(count):
        text = rnd.choice(DOCUMENTS)
        for _ in range(rnd.randint(1, 3)):
            text += rnd.choice(SEPARATOR_LINES) + rnd.choice(DOCUMENTS)
        kind, patch = rnd.choice(SEVERAL_PATCHES)
        argv = ["patch", "--local", "-f", "obj.yaml", "--type", kind, "-p", patch]
        argv += rnd.choice((["-o", "json"], ["-o", "yaml"], ["-o", "name"], []))
        argv += ["-n", "default"] if rnd.random() < 0.2 else []
        cases.append({"object": text, "argv": argv})
    return cases


def test_live_object_text_matches_kubectl() -> None:
    binaries = _binaries()
    require(set(binaries) == set(VERSIONS),
            f"kubectl {', '.join(VERSIONS)} next to the kubectl on PATH")
    argv = ["patch", "--local", "-f", "obj.yaml", "--type", "merge", "-p", "{}", "-o", "json"]
    jobs = [(case, case["kubectl"]["1.32"]) for case in CASES[::25]]
    jobs += [({"object": text, "argv": argv}, None) for text in random_objects(32, 60)]
    jobs += [(case, None) for case in random_several(33, 40)]
    failures = []
    for case, recorded in jobs:
        live = run_kubectl(binaries["1.32"], case)
        if recorded is not None and live != recorded:
            failures.append(f"kubectl 1.32 drifted from the recording: {case['id']}")
        ours = run_cfgpatch(case)
        agrees = (ours["exit_code"] == live["exit_code"] and ours["stdout"] == live["stdout"]
                  and ours["stderr"].startswith(live["stderr"]))
        if not agrees:
            failures.append(f"{case['object']!r}: kubectl {live}, cfgpatch {ours}")
    assert not failures, "\n".join(failures[:20])
