"""How kubectl reads a manifest file's bytes (``cfgpatch.kube.io.filebytes``), held to
kubectl.

``tests/data/kube/file-bytes/cases.jsonl`` is recorded by
``scripts/record_kube_file_bytes.py`` from kubectl 1.32, 1.27 and 1.33 (they agree on
every case): bytes that are not UTF-8 in YAML and JSON object files, UTF-8 and UTF-16
byte order marks, characters YAML refuses, and patch files with the same bytes. Every
case is replayed through ``cfgpatch kube patch`` (no kubectl needed): same exit code,
same standard output, standard error starting with kubectl's. The live test asks the
installed kubectl about random byte strings in every position (required in CI).
"""

from __future__ import annotations

import base64
import codecs
import json
import os
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cfgpatch.kube.io.filebytes import decode
from cli_support import assert_agrees, run_kube_in_folder
from conftest import require

DATA = Path(__file__).resolve().parent / "data" / "kube" / "file-bytes"


def load_cases() -> list[dict]:
    lines = (DATA / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line]


CASES = load_cases()


def files_of(case: dict) -> dict[str, bytes]:
    return {name: base64.b64decode(data) for name, data in case["files_base64"].items()}


def test_recording_covers_marks_sequences_and_patch_files() -> None:
    ids = {case["id"] for case in CASES}
    assert {"utf16le-yaml", "utf16be-json", "utf8-mark-then-latin1", "latin1-strategic-key",
            "patch-file-utf16le", "json-latin1", "yaml-key-surrogate"} <= ids
    assert len(CASES) > 80
    assert all(case["same_in"] == ["1.27", "1.33"] for case in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_case_matches_kubectl(case: dict) -> None:
    assert_agrees(run_kube_in_folder(files_of(case), case["argv"]), case["kubectl"]["1.32"])


@pytest.mark.parametrize(("data", "text"), [
    (b"", ""),
    (b"caf\xe9", "caf\ufffd"),
    (b"\xe2\x82z", "\ufffdz"),
    (b"\xc0\xaf", "\ufffd\ufffd"),
    (codecs.BOM_UTF16_LE + "é".encode("utf-16-le") + b"A", "é\ufffd"),
    (codecs.BOM_UTF16_BE + b"\xd8\x00\x00A", "\ufffdA"),
    (codecs.BOM_UTF16_LE, ""),
])
def test_decode_replaces_what_is_not_text(data: bytes, text: str) -> None:
    assert decode(data) == text


@given(st.text())
def test_decode_reads_valid_utf8_and_marked_utf16_as_written(text: str) -> None:
    clean = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    assert decode(clean.encode("utf-8", "replace")) == clean.encode("utf-8", "replace").decode()
    assert decode(codecs.BOM_UTF16_LE + clean.encode("utf-16-le")) == clean
    assert decode(codecs.BOM_UTF16_BE + clean.encode("utf-16-be")) == clean


@given(st.binary())
def test_decode_never_fails(data: bytes) -> None:
    assert isinstance(decode(data), str)


# ------------------------------------------------------------------------- live

#: Byte strings inserted into files: invalid UTF-8 of every kind, valid multi-byte
#: characters, characters YAML refuses, and YAML/JSON syntax next to them.
BYTES = (b"\xe9", b"\xff", b"\x80", b"\xe2\x82", b"\xf0\x9f\x98", b"\xc0\xaf", b"\xed\xa0\x80",
         b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", "é".encode(), "\U0001F600".encode(),
         "\ufffd".encode(), "\uffff".encode(), "\x85".encode(), b"\t", b"\n", b":", b'"',
         b"#", b"- ", b"{", b"\\", b"\x00")
LIVE_HEAD = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"
YAML_BODY = LIVE_HEAD + b'data:\n  a: x\n  "b": "y"\n  c: \'z\'\n  d: |\n    l\n'
JSON_BODY = (b'{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},'
             b'"data":{"a":"x","b":"y"}}')
PATCHES = (("merge", '{"data":{"n":"1"}}'), ("strategic", '{"data":{"n":"1"}}'),
           ("json", '[{"op":"add","path":"/data/n","value":"1"}]'))


def _mark(rnd: random.Random, data: bytes) -> bytes:
    """``data`` as it is, after a UTF-8 mark, or (text that is UTF-8) as marked UTF-16."""
    choice = rnd.random()
    if choice < 0.6:
        return data
    if choice < 0.8:
        return codecs.BOM_UTF8 + data
    text = data.decode("utf-8", "replace")
    if rnd.random() < 0.5:
        return codecs.BOM_UTF16_LE + text.encode("utf-16-le")
    return codecs.BOM_UTF16_BE + text.encode("utf-16-be")


def random_files(seed: int, count: int) -> list[dict]:
    """Object files near a valid one (YAML or JSON) with one to three byte strings
    inserted into the body, maybe marked; each with a patch type and an output."""
    rnd = random.Random(seed)
    cases = []
    for _ in range(count):
        body = rnd.choice((YAML_BODY, JSON_BODY))
        for _ in range(rnd.randint(1, 3)):
            at = rnd.randint(len(LIVE_HEAD) if body is YAML_BODY else 60, len(body) - 1)
            body = body[:at] + rnd.choice(BYTES) + body[at:]
        kind, patch = rnd.choice(PATCHES)
        argv = ["patch", "--local", "-f", "obj.yaml", "--type", kind, "-p", patch, "-o",
                rnd.choice(("json", "yaml"))]
        cases.append({"files": {"obj.yaml": _mark(rnd, body)}, "argv": argv})
    return cases


def _binary_132() -> str | None:
    found = shutil.which("kubectl")
    if not found:
        return None
    binary = Path(os.path.realpath(found)).parent / "kubectl.1.32"
    return str(binary) if binary.exists() else None


def run_kubectl(kubectl: str, files: dict[str, bytes], argv: list[str]) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        for name, data in files.items():
            (Path(folder) / name).write_bytes(data)
        proc = subprocess.run([kubectl, *argv], cwd=folder, capture_output=True, timeout=120)
    stderr = proc.stderr.decode("utf-8", "surrogateescape")
    if proc.returncode == 2:  # a Go panic: its first line only
        stderr = stderr.splitlines()[0] + "\n" if stderr else ""
    return {"stdout": proc.stdout.decode("utf-8", "surrogateescape"), "stderr": stderr,
            "exit_code": proc.returncode}


def test_live_file_bytes_match_kubectl() -> None:
    kubectl = _binary_132()
    require(kubectl is not None, "kubectl.1.32 next to the kubectl on PATH")
    jobs = [(files_of(case), case["argv"], case["kubectl"]["1.32"]) for case in CASES[::10]]
    jobs += [(case["files"], case["argv"], None) for case in random_files(41, 60)]
    failures = []
    for files, argv, recorded in jobs:
        live = run_kubectl(kubectl, files, argv)
        if recorded is not None and live != recorded:
            failures.append(f"kubectl 1.32 drifted from the recording: {files!r}")
        ours = run_kube_in_folder(files, argv)
        agrees = (ours["exit_code"] == live["exit_code"] and ours["stdout"] == live["stdout"]
                  and ours["stderr"].startswith(live["stderr"]))
        if not agrees:
            failures.append(f"{files!r} {argv}: kubectl {live}, cfgpatch {ours}")
    assert not failures, "\n".join(failures[:10])
