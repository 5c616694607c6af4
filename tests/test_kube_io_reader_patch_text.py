"""How the ``-p`` / ``--patch-file`` text is read, held to kubectl case by case.

``tests/data/kube/patch-text/cases.jsonl`` is recorded by
``scripts/record_kube_patch_text.py`` from kubectl 1.32, 1.27 and 1.33: a matrix of
patch texts (whitespace, content after the first value, several documents, comments,
escapes, byte order marks, bytes that are not UTF-8, tabs, numbers, literals, duplicate
keys, deep nesting, YAML features, empty text) for each ``--type`` given as ``-p``, and
for strategic also as ``--patch-file``.  Every case is replayed through ``cfgpatch kube
patch`` (no kubectl needed): same exit code, same standard output, standard error
starting with kubectl's.  The only cases answered otherwise are nesting deeper than
cfgpatch handles (:data:`NESTING_LIMIT`), which get a clear error.  The live test runs a
sample of the cases and random patch texts through the installed kubectl binaries
(required in CI).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from cli_support import assert_agrees, run_kube_in_folder
from conftest import require

DATA = Path(__file__).resolve().parent / "data" / "kube" / "patch-text"
OBJECT = (DATA / "cm.yaml").read_text(encoding="utf-8")
VERSIONS = ("1.32", "1.27", "1.33")
#: Where kubectl 1.27 or 1.33 reads a patch text differently from 1.32 (we follow 1.32).
KNOWN_VERSION_DIFFERENCES: dict[str, str] = {
    f"{ptype}-yaml-null-key-{via}": "1.27 capitalises 'Unsupported map key'"
    for ptype, via in (("strategic", "p"), ("strategic", "file"), ("merge", "p"))
}
#: Nesting cfgpatch refuses on purpose (kube/io/unstructured.too_deep: a few hundred
#: levels, where kubectl goes on to 10000): these cases get that clear error instead.
NESTING_LIMIT = re.compile(r"-deep-(list|map)-(1000|10001)-")


def load_cases() -> list[dict]:
    lines = (DATA / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


CASES = load_cases()


def answer(case: dict, version: str) -> dict:
    """kubectl ``version``'s recorded answer: stored under its version when it differs
    from 1.32's, else the version is listed in ``same_in``."""
    if version in case["kubectl"]:
        return case["kubectl"][version]
    assert version in case["same_in"], (case["id"], version)
    return case["kubectl"]["1.32"]


def patch_bytes(case: dict) -> bytes:
    if "patch_hex" in case:
        return bytes.fromhex(case["patch_hex"])
    return case["patch"].encode("utf-8")


def argv_of(case: dict, patch: bytes) -> list[str]:
    """The case's arguments with the patch text where ``{PATCH}`` stands; as Python
    passes a command line, bytes that are not UTF-8 become surrogate escapes."""
    text = os.fsdecode(patch)
    return [arg.replace("{PATCH}", text) for arg in case["argv"]]


def run_cfgpatch(argv: list[str], patch: bytes) -> dict:
    """``cfgpatch kube <argv>`` in a scratch folder holding cm.yaml and patch.txt."""
    return run_kube_in_folder({"cm.yaml": OBJECT, "patch.txt": patch}, argv)


def run_kubectl(kubectl: str, argv: list[str], patch: bytes) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "cm.yaml").write_text(OBJECT, encoding="utf-8")
        (Path(folder) / "patch.txt").write_bytes(patch)
        proc = subprocess.run([kubectl, *argv], cwd=folder, capture_output=True, timeout=120)
    stderr = proc.stderr.decode("utf-8", "surrogateescape")
    if proc.returncode == 2:
        stderr = stderr.splitlines()[0] + "\n" if stderr else ""
    return {"stdout": proc.stdout.decode("utf-8", "surrogateescape"), "stderr": stderr,
            "exit_code": proc.returncode}


def test_recording_covers_the_matrix() -> None:
    assert len(CASES) > 1500
    assert {c["type"] for c in CASES} == {"strategic", "merge", "json"}
    assert {c["via"] for c in CASES} == {"p", "file", "p=", "patch="}
    assert all(set(c["kubectl"]) | set(c["same_in"]) == set(VERSIONS) for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_matches_kubectl(case: dict) -> None:
    patch = patch_bytes(case)
    ours = run_cfgpatch(argv_of(case, patch), patch)
    if NESTING_LIMIT.search(case["id"]):
        assert ours["exit_code"] == 1
        assert ours["stderr"].startswith("error: the input is nested too deeply for cfgpatch")
        return
    assert_agrees(ours, case["kubectl"]["1.32"])


def test_every_class_is_recorded_for_every_type() -> None:
    """Each kind of text is there for strategic, merge and json (a class of YAML-only
    texts for strategic and merge, or for json), by -p and, for strategic, by file."""
    classes: dict[str, set] = {}
    for case in CASES:
        name = case["id"].split("-", 1)[1].rsplit("-", 1)[0]
        classes.setdefault(name, set()).add((case["type"], case["via"]))
    assert len(classes) > 400
    for name, seen in classes.items():
        types = {ptype for ptype, _ in seen}
        assert types in ({"strategic", "merge", "json"}, {"strategic", "merge"}, {"json"}), name
    for group in ("after-", "before-", "lead-", "trail-", "inner-", "esc-", "bytes-", "num-",
                  "lit-", "whole-", "deep-", "yaml-tab-", "yaml-after-doc", "dup-"):
        assert any(name.startswith(group) for name in classes), group


def test_kubectl_versions_read_patch_text_alike() -> None:
    """1.27 and 1.33 answer as 1.32 does, except where a difference is written down."""
    differ = {c["id"] for c in CASES
              if any(answer(c, v) != answer(c, "1.32") for v in VERSIONS)}
    assert differ == set(KNOWN_VERSION_DIFFERENCES)


# ------------------------------------------------------------------------- live


def _binaries() -> dict[str, str]:
    found = shutil.which("kubectl")
    folder = Path(os.path.realpath(found)).parent if found else Path(".")
    return {v: str(folder / f"kubectl.{v}") for v in VERSIONS
            if (folder / f"kubectl.{v}").exists()}


FRAGMENTS = ("{", "}", "[", "]", ",", ":", " ", "\t", "\n", "\r", "\f", "\u00a0", "\ufeff",
             "#", "---", "...", '"', "'", "\\", "\\t", "\\u00e9", "a", "data", "c", "d",
             "op", "add", "path", "/data/c", "value", "1", "1.0", "1e400", "null", "on",
             "~", "-", "- ", "&a", "*a", "!!str", "%YAML 1.1", "\x01", "\x7f", "\u2028")


def random_texts(seed: int, count: int) -> list[bytes]:
    """Patch texts near the valid ones: a valid patch with fragments inserted or
    appended, or a short run of fragments alone."""
    rnd = random.Random(seed)
    bases = ('{"data":{"c":"d"}}', '[{"op":"add","path":"/data/c","value":"d"}]',
             "data:\n  c: d\n", "- op: add\n  path: /data/c\n  value: d\n")
    out = []
    for _ in range(count):
        if rnd.random() < 0.2:
            text = "".join(rnd.choice(FRAGMENTS) for _ in range(rnd.randint(1, 6)))
        else:
            text = rnd.choice(bases)
            for _ in range(rnd.randint(1, 3)):
                at = rnd.randint(0, len(text))
                text = text[:at] + rnd.choice(FRAGMENTS) + text[at:]
        data = text.encode("utf-8")
        if rnd.random() < 0.05:
            data += b"\xff"
        out.append(data)
    return out


def test_live_patch_text_matches_kubectl() -> None:
    binaries = _binaries()
    require(set(binaries) == set(VERSIONS),
            f"kubectl {', '.join(VERSIONS)} next to the kubectl on PATH")
    sample = CASES[::23]
    jobs = [(case["argv"], patch_bytes(case), case) for case in sample]
    for index, data in enumerate(random_texts(16, 90)):
        ptype = ("strategic", "merge", "json")[index % 3]
        via = ["-p", "{PATCH}"] if index % 4 and b"\x00" not in data else [
            "--patch-file", "patch.txt"]
        argv = ["patch", "--local", "-f", "cm.yaml", "--type", ptype, *via, "-o", "json"]
        jobs.append((argv, data, None))
    failures = []
    for argv, data, recorded in jobs:
        full = argv_of({"argv": argv}, data)
        ours = run_cfgpatch(full, data)
        for version, kubectl in binaries.items():
            live = run_kubectl(kubectl, full, data)
            if recorded is not None and live != answer(recorded, version):
                failures.append(f"kubectl {version} drifted from the recording: {full}")
            if version != "1.32":
                continue
            try:
                assert_agrees(ours, live)
            except AssertionError as err:
                failures.append(f"{data!r} ({argv[5]}): {err}")
    assert not failures, "\n".join(failures[:20])
