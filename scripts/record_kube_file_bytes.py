#!/usr/bin/env python3
"""Record how kubectl reads a manifest file's bytes: byte order marks and bytes that are
not UTF-8.

Each case is the bytes of an object file (``obj.yaml``), sometimes of a patch file
(``patch.txt``), run as

    kubectl patch --local -f obj.yaml --type TYPE -p PATCH|--patch-file patch.txt -o FORMAT

in a scratch folder through kubectl 1.32, 1.27 and 1.33. The cases cover bytes that are
not UTF-8 in YAML values (quoted, plain), keys and comments and in JSON strings; truncated,
overlong and out-of-range sequences and encoded surrogates; the characters U+FFFE/U+FFFF;
UTF-8 and UTF-16 byte order marks (valid text, an unpaired surrogate, an odd last byte,
several documents, UTF-16 with no mark); a strategic patch that matches a list element by
a name holding a replaced byte; and patch files with the same bytes. kubectl 1.32's
stdout, stderr and exit code are stored in ``tests/data/kube/file-bytes/cases.jsonl`` with
the files as base64, ``same_in`` listing the versions that answered the same.
``tests/test_kube_io_filebytes.py`` replays them through ``cfgpatch kube patch``.

Usage:
    scripts/record_kube_file_bytes.py [--bin-dir DIR] [--check] [--jobs N]
"""

from __future__ import annotations

import base64
import codecs
import subprocess
import sys
import tempfile
from pathlib import Path

from kubectl_versions import answer_of, record_cases

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "kube" / "file-bytes"
VERSIONS = ("1.32", "1.27", "1.33")
HEAD = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"
JSON_HEAD = b'{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":'
MERGE = '{"data":{"b":"n"}}'

#: Byte sequences that are not UTF-8 (and two valid characters YAML refuses).
SEQUENCES = {
    "latin1": b"caf\xe9",
    "truncated-3": b"\xe2\x82",
    "truncated-3-then-ascii": b"\xe2\x82z",
    "truncated-4": b"\xf0\x9f\x98",
    "overlong-2": b"\xc0\xaf",
    "overlong-3": b"\xe0\x80\xaf",
    "overlong-4": b"\xf0\x80\x80\xaf",
    "surrogate": b"\xed\xa0\x80",
    "five-bytes": b"\xf8\x88\x80\x80\x80",
    "above-max": b"\xf4\x90\x80\x80",
    "ff-fe": b"\xff\xfe",
    "continuations": b"\x80\x80",
    "mixed": b"a\xe2\x28\xa1b",
    "u-fffe": "\ufffe".encode(),
    "u-ffff": "\uffff".encode(),
    "emoji": "\U0001F600".encode(),
}

UTF16_TEXT = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n"
              "  a: caf\u00e9 \U0001F600\n")
UTF16_JSON = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"a":"\u00e9"}}'
TWO = UTF16_TEXT + "---\n" + UTF16_TEXT.replace("name: cm", "name: cm2")
POD = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
       "  - name: caf\udce9\n    image: a:1\n  - name: other\n    image: b:1\n")


def _le(text: str) -> bytes:
    return codecs.BOM_UTF16_LE + text.encode("utf-16-le", "surrogatepass")


def _be(text: str) -> bytes:
    return codecs.BOM_UTF16_BE + text.encode("utf-16-be", "surrogatepass")


#: Whole files: (name, bytes, patch, type, output).
FILES = {
    "utf16le-yaml": (_le(UTF16_TEXT), MERGE, "merge", "json"),
    "utf16le-yaml-out-yaml": (_le(UTF16_TEXT), MERGE, "merge", "yaml"),
    "utf16be-yaml": (_be(UTF16_TEXT), MERGE, "merge", "json"),
    "utf16le-json": (_le(UTF16_JSON), MERGE, "merge", "json"),
    "utf16be-json": (_be(UTF16_JSON), MERGE, "merge", "json"),
    "utf16le-two-objects": (_le(TWO), MERGE, "merge", "name"),
    "utf16le-lone-high": (_le(UTF16_TEXT.replace("caf", "c\ud800f")), MERGE, "merge", "json"),
    "utf16le-lone-low": (_le(UTF16_TEXT.replace("caf", "c\udc00f")), MERGE, "merge", "json"),
    "utf16le-odd-byte": (_le(UTF16_TEXT) + b"A", MERGE, "merge", "json"),
    "utf16le-odd-byte-in-value": (_le(UTF16_TEXT)[:-3] + b"\n", MERGE, "merge", "json"),
    "utf16le-no-mark": (UTF16_TEXT.encode("utf-16-le"), MERGE, "merge", "json"),
    "utf16be-no-mark": (UTF16_TEXT.encode("utf-16-be"), MERGE, "merge", "json"),
    "utf16le-mark-only": (codecs.BOM_UTF16_LE, MERGE, "merge", "json"),
    "utf16le-crlf": (_le(UTF16_TEXT.replace("\n", "\r\n")), MERGE, "merge", "json"),
    "utf16le-then-utf8-mark": (_le("\ufeff" + UTF16_TEXT), MERGE, "merge", "json"),
    "utf8-mark-yaml": (codecs.BOM_UTF8 + UTF16_TEXT.encode(), MERGE, "merge", "json"),
    "utf8-mark-json": (codecs.BOM_UTF8 + UTF16_JSON.encode(), MERGE, "merge", "json"),
    "utf8-mark-twice": (codecs.BOM_UTF8 * 2 + UTF16_TEXT.encode(), MERGE, "merge", "json"),
    "utf8-mark-then-latin1": (codecs.BOM_UTF8 + HEAD + b"data:\n  a: caf\xe9\n", MERGE, "merge",
                              "json"),
    "utf8-mark-then-latin1-json": (codecs.BOM_UTF8 + JSON_HEAD + b'{"a":"caf\xe9"}}', MERGE,
                                   "merge", "json"),
    "utf8-mark-then-truncated-json": (codecs.BOM_UTF8 + JSON_HEAD
                                      + b'{"a":"\xe2\x82|\xf0\x9f\x98|\xc0\xaf"}}',
                                      MERGE, "merge", "json"),
    "utf8-mark-then-latin1-json-key": (codecs.BOM_UTF8 + JSON_HEAD + b'{"k\xe9":"v"}}', MERGE,
                                       "merge", "json"),
    "utf8-mark-then-latin1-json-stream": (codecs.BOM_UTF8 + JSON_HEAD + b'{"a":"x"}}\n'
                                          + JSON_HEAD.replace(b'"cm"', b'"cm2"')
                                          + b'{"a":"caf\xe9"}}', MERGE, "merge", "json"),
    "utf8-mark-then-latin1-json-no-kind": (codecs.BOM_UTF8
                                           + b'{"apiVersion":"v1","data":{"a":"caf\xe9"}}',
                                           MERGE, "merge", "json"),
    "latin1-json-no-kind": (b'{"apiVersion":"v1","data":{"a":"caf\xe9"}}', MERGE, "merge", "json"),
    "utf8-mark-then-latin1-comment": (codecs.BOM_UTF8 + HEAD + b"# caf\xe9\n", MERGE, "merge",
                                      "json"),
    "utf8-mark-then-latin1-second": (codecs.BOM_UTF8 + HEAD + b"---\n" + HEAD
                                     + b"data:\n  a: \xff\n", MERGE, "merge", "name"),
    "utf8-mark-then-truncated": (codecs.BOM_UTF8 + HEAD + b"data:\n  a: x\xe2\x82\n", MERGE,
                                 "merge", "json"),
    "utf8-mark-then-latin1-patch-json": (codecs.BOM_UTF8 + HEAD + b"data:\n  a: caf\xe9\n",
                                         '[{"op":"add","path":"/data/b","value":"n"}]', "json",
                                         "json"),
    "utf8-mark-syntax-then-incomplete": (codecs.BOM_UTF8 + HEAD + b"data: [\n  a: x\xe2\x82",
                                         MERGE, "merge", "json"),
    "utf8-mark-incomplete-alone": (codecs.BOM_UTF8 + HEAD + b"data:\n  a: x\xe2\x82", MERGE,
                                   "merge", "json"),
    "latin1-comment": (HEAD + b"# caf\xe9\ndata:\n  a: x\n", MERGE, "merge", "json"),
    "latin1-in-name": (HEAD.replace(b"name: cm", b"name: c\xe9m"), MERGE, "merge", "name"),
    "latin1-out-yaml": (HEAD + b"data:\n  a: caf\xe9\n", MERGE, "merge", "yaml"),
    "latin1-json-key": (JSON_HEAD + b'{"k\xe9":"v"}}', MERGE, "merge", "json"),
    "latin1-strategic-key": (POD.encode("utf-8", "surrogateescape"),
                             '{"spec":{"containers":[{"name":"caf\ufffd","image":"a:2"}]}}',
                             "strategic", "json"),
    "latin1-json-patch-test": (HEAD + b"data:\n  a: caf\xe9\n",
                               '[{"op":"test","path":"/data/a","value":"caf\ufffd"},'
                               '{"op":"add","path":"/data/b","value":"n"}]', "json", "json"),
    "latin1-two-objects": (HEAD + b"data:\n  a: caf\xe9\n---\n" + HEAD.replace(b"cm", b"cm2")
                           + b"data:\n  a: \xff\n", MERGE, "merge", "json"),
}
#: Patch files (``--patch-file``) on a plain object: (name, bytes, type).
PATCH_FILES = {
    "patch-file-latin1": (b'{"data":{"b":"caf\xe9"}}', "merge"),
    "patch-file-latin1-yaml": (b"data:\n  b: caf\xe9\n", "merge"),
    "patch-file-utf8-mark": (codecs.BOM_UTF8 + b'{"data":{"b":"n"}}', "merge"),
    "patch-file-utf16le": (_le('{"data":{"b":"n"}}'), "merge"),
    "patch-file-utf16le-yaml": (_le("data:\n  b: n\u00e9\n"), "merge"),
    "patch-file-utf16le-lone-high": (_le("data:\n  b: \ud800x\n"), "merge"),
    "patch-file-utf16le-lone-low": (_le("data:\n  b: \udc00x\n"), "merge"),
    "patch-file-utf16le-high-at-end": (_le("data:\n  b: x\n\ud800"), "merge"),
    "patch-file-utf16be-odd-byte": (_be("data:\n  b: x\n") + b"A", "merge"),
    "patch-file-utf16le-syntax-then-odd-byte": (_le("data: [\n  b: x\n") + b"A", "merge"),
    "patch-file-utf16le-syntax-then-lone-low": (_le("data: [\n  b: \udc00\n"), "merge"),
    "patch-file-syntax-then-incomplete-utf8": (b"data: [\n  b: x\xe2\x82", "merge"),
    "patch-file-syntax-then-invalid-utf8": (b"data: [\n  b: x\xff\n", "merge"),
}


def plan() -> list[dict]:
    """Every case as stored: ``id``, ``files_base64`` (file name -> bytes) and ``argv``."""
    cases: list[dict] = []

    def add(name: str, data: bytes, patch: str = MERGE, kind: str = "merge",
            output: str = "json", patch_file: bytes | None = None) -> None:
        files = {"obj.yaml": data}
        argv = ["patch", "--local", "-f", "obj.yaml", "--type", kind]
        if patch_file is None:
            argv += ["-p", patch]
        else:
            files["patch.txt"] = patch_file
            argv += ["--patch-file", "patch.txt"]
        cases.append({"id": name, "argv": argv + ["-o", output],
                      "files_base64": {file: base64.b64encode(raw).decode("ascii")
                                       for file, raw in files.items()}})

    for name, raw in SEQUENCES.items():
        add(f"yaml-quoted-{name}", HEAD + b'data:\n  a: "' + raw + b'"\n')
        add(f"yaml-plain-{name}", HEAD + b"data:\n  a: q" + raw + b"q\n")
        add(f"yaml-key-{name}", HEAD + b'data:\n  "k' + raw + b'": v\n')
        add(f"json-{name}", JSON_HEAD + b'{"a":"' + raw + b'"}}')
    for name, (data, patch, kind, output) in FILES.items():
        add(name, data, patch, kind, output)
    for name, (data, kind) in PATCH_FILES.items():
        add(name, HEAD + b"data:\n  a: x\n", kind=kind, patch_file=data)
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return cases


def run(kubectl: str, case: dict) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        for name, data in case["files_base64"].items():
            (Path(scratch) / name).write_bytes(base64.b64decode(data))
        proc = subprocess.run([kubectl, *case["argv"]], cwd=scratch, capture_output=True,
                              timeout=120)
    return answer_of(proc)


if __name__ == "__main__":
    sys.exit(record_cases(None, __doc__.splitlines()[0], plan(), VERSIONS, run,
                          OUT / "cases.jsonl"))
