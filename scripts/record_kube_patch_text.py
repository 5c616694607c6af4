#!/usr/bin/env python3
"""Record how kubectl reads the ``-p`` / ``--patch-file`` text, for every ``--type``.

The plan below is a matrix of patch texts (whitespace of every kind before, inside and
after the patch, content after the first value, several YAML documents, comments,
escapes, byte order marks, bytes that are not UTF-8, tabs in every YAML position,
numbers, literals, duplicate keys, deep nesting, YAML features, empty text) times the
three patch types, each given as ``-p TEXT``; strategic ones also as ``--patch-file F``
(a file reads as ``-p`` does except that kubectl's errors quote ``""``: measured, one
type is enough), texts no argument can hold (NUL, UTF-16, empty) only as a file, and
``-p=TEXT`` / ``--patch=TEXT`` for a few.  Every case runs

    kubectl patch --local -f cm.yaml --type T -p TEXT -o json

in a scratch folder through kubectl 1.32, 1.27 and 1.33; kubectl 1.32's stdout, stderr
and exit code are stored in ``tests/data/kube/patch-text/cases.jsonl`` (one case a line;
a crash keeps its first ``panic:`` line), with ``same_in`` listing the versions that
answered the same and the answer of any version that did not.
``tests/test_kube_io_reader_patch_text.py`` replays them through ``cfgpatch kube patch``
without kubectl.

A patch is stored as ``patch`` (text) or, when it is not UTF-8, as ``patch_hex``;
``argv`` holds ``{PATCH}`` where the text goes.  Standard output and error are decoded
as UTF-8 with ``surrogateescape`` (JSON keeps the escapes).

Usage:
    scripts/record_kube_patch_text.py [--bin-dir DIR] [--check] [--jobs N]

``--bin-dir`` defaults to the folder of the ``kubectl`` on PATH (which holds
``kubectl.1.27`` ... ``kubectl.1.33``).  ``--check`` records again and reports cases
whose result changed, writing nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from kubectl_versions import answer_of, ask_every_version, default_bin_dir, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "kube" / "patch-text"
VERSIONS = ("1.32", "1.27", "1.33")
TYPES = ("strategic", "merge", "json")
OBJECT = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: b\n"

JSON_BODY = {"strategic": '{"data":{"c":%s}}', "merge": '{"data":{"c":%s}}',
             "json": '[{"op":"add","path":"/data/c","value":%s}]'}
YAML_BODY = {"strategic": "data:\n  c: %s\n", "merge": "data:\n  c: %s\n",
             "json": "- op: add\n  path: /data/c\n  value: %s\n"}
FLOW_BODY = {"strategic": "{data: {c: %s}}", "merge": "{data: {c: %s}}",
             "json": "[{op: add, path: /data/c, value: %s}]"}

WHITESPACE = {"sp": " ", "tab": "\t", "lf": "\n", "crlf": "\r\n", "cr": "\r", "ff": "\f",
              "vt": "\v", "nbsp": "\u00a0", "nel": "\u0085", "ls": "\u2028", "ps": "\u2029",
              "ideo": "\u3000", "bom": "\ufeff", "zwsp": "\u200b", "nul": "\x00",
              "sp-tab": " \t", "tab-lf": "\t\n"}
SUFFIXES = {"x": "x", "sp-x": " x", "comma": ",", "bracket": "]", "brace": "}",
            "again": "{BODY}", "sp-again": " {BODY}", "lf-again": "\n{BODY}",
            "doc-again": "\n---\n{BODY}", "doc-bad": "\n---\n[", "doc-bad2": "\n---\na: b: c",
            "doc-ctrl": "\n---\n\x01", "doc-tab": "\n---\n\tx", "doc-end": "\n...\n",
            "doc-end-bad": "\n...\nx: [", "hash": " # c", "hash-tight": "# c",
            "lf-hash": "\n# c", "slashes": " // c", "doc-empty": "\n---\n",
            "ctrl": "\x01", "del": "\x7f", "lf-ctrl": "\n\x01"}
PREFIXES = {"hash": "# c\n", "doc": "---\n", "doc-sp": "--- ", "yaml11": "%YAML 1.1\n---\n",
            "yaml12": "%YAML 1.2\n---\n", "tag": "%TAG !e! tag:e.com,2000:\n---\n",
            "cstyle": "/* c */", "empty-doc": "---\n---\n", "doc-end": "...\n",
            "empty-docs": "---\n...\n---\n", "hash-only-doc": "# c\n---\n", "ctrl": "\x01"}
ESCAPES = {"u-e9": r"\u00e9", "u-pair": r"\ud83d\ude00", "u-lone-hi": r"\ud800",
           "u-lone-lo": r"\udc00x", "u-bad-pair": r"\ud800\u0041", "slash": r"\/",
           "x41": r"\x41", "zero": r"\0", "bell": r"\a", "esc": r"\e", "nel": r"\N",
           "nbsp": r"\_", "ls": r"\L", "ps": r"\P", "big-u": r"\U0001F600", "u0": r"\u0000",
           "tab": r"\t", "squote": r"\'", "space": r"\ ", "u-upper": r"\u00C9",
           "u-short": r"\u00e", "bad": r"\q", "raw-tab": "\t", "raw-lf": "\n",
           "raw-cr": "\r", "raw-ctrl": "\x01", "raw-del": "\x7f", "raw-nel": "\u0085",
           "raw-ls": "\u2028", "raw-fffe": "\ufffe", "raw-bom": "\ufeff", "raw-emoji": "😀",
           "raw-c1": "\u0080", "raw-esc": "\x1b"}
BAD_BYTES = {"ff": b"\xff", "c3-28": b"\xc3\x28", "latin1": b"caf\xe9", "cesu": b"\xed\xa0\x80",
             "overlong": b"\xc0\xaf", "truncated": b"\xe2\x82", "f8": b"\xf8\x88\x80\x80\x80"}
NUMBERS = ("1", "1.0", "1e3", "1E+2", "-0", "-0.0", "0.1e1", "1e400", "-1e400", "1e-400",
           "18446744073709551616", "18446744073709551615", "9223372036854775807",
           "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
           "0.1", "1.5e-7", "1e21", "01", "0x10", ".5", "1.", "+1", "1_0", "0o17", "0b11",
           ".inf", "-.inf", ".nan", "NaN", "Infinity", "1e", "-", "2024-01-01", "12:30")
LITERALS = ("true", "True", "TRUE", "yes", "on", "off", "y", "n", "null", "Null", "~", '""',
            "''", "tRue", "nil", "None")
WHOLE = {"empty": "", "sp": " ", "lf": "\n", "tab": "\t", "crlf": "\r\n", "hash": "# c",
         "doc": "---", "doc-end": "...", "null": "null", "tilde": "~", "obj": "{}",
         "arr": "[]", "true": "true", "one": "1", "str": '"s"', "word": "x", "lbrace": "{",
         "lbracket": "[", "rbrace": "}", "rbracket": "]", "bad-map": "a: b: c",
         "seq": "- a", "objobj": "{}{}", "arrarr": "[][]", "obj-x": "{} x", "nbsp": "\u00a0",
         "bom": "\ufeff", "bom-obj": "\ufeff{}", "ff": "\f", "nul": "\x00", "null-obj": "{null}",
         "quoted-obj": '"{}"', "obj-null": '{"data":null}', "arr-null": "[null]",
         "arr-obj": "[{}]", "minus-one": "-1", "dash-word": "-x", "dashes": "--x",
         "arr-empty-op": '[{"op":""}]', "arr-scalar": "[1]",
         "obj-arr": '{"a":[]}', "flow-seq-obj": "[a: b]"}
DEEP = (50, 1000, 10001)
YAML_TEXTS = {  # (types, text)
    "tab-indent": ("sm", "data:\n\tc: d\n"),
    "tab-after-colon": ("sm", "data:\n  c:\td\n"),
    "tab-after-key-flow": ("sm", "data: {c:\td}\n"),
    "tab-before-value": ("sm", "data: \t{c: d}\n"),
    "tab-eol": ("sm", "data:\t\n  c: d\n"),
    "tab-in-seq": ("j", "-\top: add\n  path: /data/c\n  value: d\n"),
    "tab-after-dash": ("j", "- op: add\n  path: /data/c\n  value:\td\n"),
    "flow-tabs": ("smj", None),  # FLOW_BODY with tabs after every ',' and ':'
    "anchor": ("sm", "x: &a d\ndata:\n  c: *a\n"),
    "merge-key": ("sm", "base: &b {c: d}\ndata:\n  <<: *b\n"),
    "tag-str": ("sm", "data:\n  c: !!str 1\n"),
    "tag-int": ("sm", "data:\n  c: !!int 1\n"),
    "tag-binary": ("sm", "data:\n  c: !!binary aGk=\n"),
    "tag-custom": ("sm", "data:\n  c: !x d\n"),
    "tag-local-map": ("sm", "data: !m\n  c: d\n"),
    "complex-key": ("sm", "data:\n  ? c\n  : d\n"),
    "seq-key": ("sm", "data:\n  [a]: d\n"),
    "bool-key": ("sm", "data:\n  on: d\n"),
    "int-key": ("sm", "data:\n  1: d\n"),
    "null-key": ("sm", "data:\n  ~: d\n"),
    "float-key": ("sm", "data:\n  1.5: d\n"),
    "long-key": ("sm", "data:\n  " + "k" * 1100 + ": d\n"),
    "long-flow-key": ("sm", "{data: {" + "k" * 1100 + ": d}}"),
    "block-literal": ("sm", "data:\n  c: |\n    d\n    e\n"),
    "block-folded": ("sm", "data:\n  c: >-\n    d\n    e\n"),
    "single-quoted": ("sm", "data:\n  c: 'it''s'\n"),
    "dup-key": ("sm", "data:\n  c: 1\n  c: 2\n"),
    "dup-top": ("sm", "data:\n  c: d\ndata:\n  e: f\n"),
    "dup-flow": ("sm", "{data: {c: 1, c: 2}}"),
    "json-ish": ("sm", ' {"data":{"c":"d"}}'.replace(" ", "\u00a0")),
    "flow-trailing-comma": ("smj", None),
    "seq-block": ("j", "- op: add\n  path: /data/c\n  value: d\n- op: add\n  path: /data/e\n"
                       "  value: f\n"),
    "seq-indented": ("j", "  - op: add\n    path: /data/c\n    value: d\n"),
    "crlf-yaml": ("smj", None),
    "cr-yaml": ("smj", None),
    "comment-inside": ("smj", None),
    "comment-no-space": ("sm", "data:\n  c: d#x\n"),
    "directive-after": ("sm", "data:\n  c: d\n%YAML 1.1\n"),
    "unknown-directive": ("sm", "%FOO bar\n---\ndata:\n  c: d\n"),
    "two-yaml-directives": ("sm", "%YAML 1.1\n%YAML 1.1\n---\ndata:\n  c: d\n"),
    "yaml-version-2": ("sm", "%YAML 2.0\n---\ndata:\n  c: d\n"),
    "undefined-alias": ("sm", "data:\n  c: *nope\n"),
    "utf16le-bom": ("smj", None),
    "utf16be-bom": ("smj", None),
    "utf8-bom-yaml": ("smj", None),
    "bom-mid": ("sm", "data:\n  c: d\n\ufeffe: f\n"),
    "tab-in-plain": ("sm", "data:\n  c: a\tb\n"),
    "tab-plain-trailing": ("sm", "data:\n  c: a b\t\t\n  e: f\n"),
    "tab-continuation": ("sm", "data:\n  c: a\n\tb\n"),
    "tab-continuation-deep": ("sm", "data:\n  c: a\n   \tb\n"),
    "tab-before-colon": ("sm", "data:\n  c\t: d\n"),
    "tab-complex-value": ("sm", "data:\n  ? c\n  :\td\n"),
    "tab-after-question": ("sm", "data:\n  ?\tc\n  : d\n"),
    "tab-flow-lines": ("sm", "data: {c: a,\n\te: f}\n"),
    "tab-after-doc-start": ("sm", "---\tdata: {c: d}\n"),
    "tab-before-comment": ("sm", "data:\n  c: d\t# x\n"),
    "tab-dash-json": ("j", "-\t{op: add, path: /data/c, value: d}\n"),
    "tab-seq-value": ("j", "- op:\tadd\n  path:\t/data/c\n  value:\td\n"),
    "tab-quoted": ("sm", 'data:\n  c: "a\tb"\t\n'),
    "after-doc-far": ("smj", None),
    "after-doc-far-bad": ("smj", None),
}


def _case(cases: list, cid: str, ptype: str, patch: bytes, vias: tuple | None = None,
          output: str = "json") -> None:
    if vias is None:  # a file reads as -p does but for the quote in errors: one type does
        vias = ("p", "file") if ptype == "strategic" else ("p",)
    if b"\x00" in patch or patch.startswith((b"\xff\xfe", b"\xfe\xff")) or not patch:
        vias = tuple(v for v in vias if v != "p") or ("file",)  # an argument cannot hold NUL
    for via in vias:
        cases.append({"id": f"{ptype}-{cid}-{via}", "type": ptype, "via": via,
                      "patch": patch, "output": output})


def _enc(text: str) -> bytes:
    return text.encode("utf-8")


def _special_yaml(name: str, ptype: str) -> bytes:
    if name == "flow-tabs":
        return _enc(FLOW_BODY[ptype].replace(", ", ",\t").replace(": ", ":\t") % "d")
    if name == "flow-trailing-comma":
        return _enc(JSON_BODY[ptype].replace("}", ",}").replace("]", ",]") % '"d"')
    if name == "crlf-yaml":
        return _enc((YAML_BODY[ptype] % "d").replace("\n", "\r\n"))
    if name == "cr-yaml":
        return _enc((YAML_BODY[ptype] % "d").replace("\n", "\r"))
    if name == "comment-inside":
        return _enc((YAML_BODY[ptype] % "d # c").replace("\n", " # c\n", 1))
    if name == "utf16le-bom":
        return b"\xff\xfe" + (YAML_BODY[ptype] % "d").encode("utf-16-le")
    if name == "utf16be-bom":
        return b"\xfe\xff" + (YAML_BODY[ptype] % "d").encode("utf-16-be")
    if name == "after-doc-far":  # a second document beyond go-yaml's first 512 bytes
        return _enc(YAML_BODY[ptype] % "d" + "---\n" + "# pad\n" * 100 + "x: [\n")
    if name == "after-doc-far-bad":
        return _enc(YAML_BODY[ptype] % "d" + "---\n" + "# pad\n" * 100) + b"x: \xff\n"
    if name == "utf8-bom-yaml":
        return b"\xef\xbb\xbf" + _enc(YAML_BODY[ptype] % "d")
    raise KeyError(name)


def plan() -> list[dict]:
    """Every case: ``id``, ``type``, ``via`` (``p``, ``file``, ``p=``, ``patch=``), ``patch``."""
    cases: list[dict] = []
    for ptype in TYPES:
        body, ybody = JSON_BODY[ptype] % '"d"', YAML_BODY[ptype] % "d"
        _case(cases, "plain", ptype, _enc(body), ("p", "file", "p=", "patch="))
        _case(cases, "yaml", ptype, _enc(ybody), ("p", "file", "p=", "patch="))
        _case(cases, "flow", ptype, _enc(FLOW_BODY[ptype] % "d"))
        for name, ws in WHITESPACE.items():
            _case(cases, f"lead-{name}", ptype, _enc(ws + body))
            _case(cases, f"trail-{name}", ptype, _enc(body + ws))
            inner = body.replace(",", "," + ws).replace(":", ":" + ws).replace("{", "{" + ws)
            _case(cases, f"inner-{name}", ptype, _enc(inner.replace("[", "[" + ws)))
            _case(cases, f"yaml-lead-{name}", ptype, _enc(ws + ybody))
            _case(cases, f"yaml-trail-{name}", ptype, _enc(ybody.rstrip("\n") + ws))
        _case(cases, "indent-tab", ptype, _enc(json.dumps(json.loads(body), indent="\t")))
        _case(cases, "indent-crlf", ptype,
              _enc(json.dumps(json.loads(body), indent=2).replace("\n", "\r\n")))
        for name, suffix in SUFFIXES.items():
            _case(cases, f"after-{name}", ptype, _enc(body + suffix.replace("{BODY}", body)))
            _case(cases, f"yaml-after-{name}", ptype,
                  _enc(ybody + suffix.lstrip("\n").replace("{BODY}", ybody)))
        for name, prefix in PREFIXES.items():
            _case(cases, f"before-{name}", ptype, _enc(prefix + body))
            _case(cases, f"yaml-before-{name}", ptype, _enc(prefix + ybody))
        for name, escape in ESCAPES.items():
            _case(cases, f"esc-{name}", ptype, _enc(JSON_BODY[ptype] % f'"{escape}"'))
            _case(cases, f"yaml-esc-{name}", ptype, _enc(YAML_BODY[ptype] % f'"{escape}"'))
        for name, raw in BAD_BYTES.items():
            _case(cases, f"bytes-{name}", ptype, (JSON_BODY[ptype] % '"%s"').encode()
                  .replace(b"%s", raw))
            _case(cases, f"yaml-bytes-{name}", ptype, (YAML_BODY[ptype] % '"%s"').encode()
                  .replace(b"%s", raw))
            _case(cases, f"yaml-plain-bytes-{name}", ptype, (YAML_BODY[ptype] % "%s").encode()
                  .replace(b"%s", raw))
        _case(cases, "bytes-after", ptype, _enc(body) + b"\xff")
        _case(cases, "bytes-before", ptype, b"\xff" + _enc(body))
        _case(cases, "bytes-key", ptype, _enc(body).replace(b'"c"', b'"\xff"'))
        for number in NUMBERS:
            _case(cases, f"num-{number}", ptype, _enc(JSON_BODY[ptype] % number))
            _case(cases, f"yaml-num-{number}", ptype, _enc(YAML_BODY[ptype] % number))
        for literal in LITERALS:
            _case(cases, f"lit-{literal}", ptype, _enc(JSON_BODY[ptype] % literal))
            _case(cases, f"yaml-lit-{literal}", ptype, _enc(YAML_BODY[ptype] % literal))
        for name, text in WHOLE.items():
            _case(cases, f"whole-{name}", ptype, _enc(text))
        for depth in DEEP:
            out = "json" if depth <= 50 else "name"  # -o json of 10000 levels is gigabytes
            nested = "[" * depth + "]" * depth
            _case(cases, f"deep-list-{depth}", ptype, _enc(JSON_BODY[ptype] % nested),
                  ("p",), output=out)
            nested = '{"a":' * depth + "1" + "}" * depth
            _case(cases, f"deep-map-{depth}", ptype, _enc(JSON_BODY[ptype] % nested),
                  ("p",), output=out)
            _case(cases, f"yaml-deep-list-{depth}", ptype, _enc(YAML_BODY[ptype] % (
                "[" * depth + "]" * depth)), ("p",), output=out)
        for name, (types, text) in YAML_TEXTS.items():
            if ptype[0] not in types:
                continue
            data = _enc(text) if text is not None else _special_yaml(name, ptype)
            if ptype == "json" and text is not None and "data:" in text:
                continue
            _case(cases, f"yaml-{name}", ptype, data)
    _dup_cases(cases)
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return cases


def _dup_cases(cases: list) -> None:
    for ptype in ("strategic", "merge"):
        _case(cases, "dup-inner", ptype, b'{"data":{"c":"1","c":"2"}}')
        _case(cases, "dup-top", ptype, b'{"data":{"c":"1"},"data":{"e":"2"}}')
        _case(cases, "dup-null", ptype, b'{"data":{"c":"1","c":null}}')
    _case(cases, "dup-op", "json", b'[{"op":"remove","op":"add","path":"/data/c","value":"d"}]')
    _case(cases, "dup-value", "json", b'[{"op":"add","path":"/data/c","value":"1","value":"2"}]')
    _case(cases, "dup-path", "json", b'[{"op":"add","path":"/x","path":"/data/c","value":"1"}]')


def argv_of(case: dict) -> list[str]:
    """kubectl's arguments for a case, with ``{PATCH}`` where the text goes."""
    flag = {"p": ["-p", "{PATCH}"], "p=": ["-p={PATCH}"], "patch=": ["--patch={PATCH}"],
            "file": ["--patch-file", "patch.txt"]}[case["via"]]
    return ["patch", "--local", "-f", "cm.yaml", "--type", case["type"], *flag,
            "-o", case["output"]]


def run(kubectl: str, case: dict) -> dict:
    text = os.fsdecode(case["patch"])
    argv = [a.replace("{PATCH}", text) for a in argv_of(case)]
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "cm.yaml").write_text(OBJECT, encoding="utf-8")
        (Path(scratch) / "patch.txt").write_bytes(case["patch"])
        proc = subprocess.run([kubectl, *argv], cwd=scratch, capture_output=True, timeout=120)
    return answer_of(proc)


def stored(case: dict, results: dict) -> dict:
    out = {"id": case["id"], "type": case["type"], "via": case["via"]}
    try:
        out["patch"] = case["patch"].decode("utf-8")
    except UnicodeDecodeError:
        out["patch_hex"] = case["patch"].hex()
    out["argv"] = argv_of(case)
    first = results[VERSIONS[0]]
    out["kubectl"] = {VERSIONS[0]: first}
    out["kubectl"].update({v: r for v, r in results.items() if r != first})
    out["same_in"] = [v for v, r in results.items() if v != VERSIONS[0] and r == first]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin-dir", default=default_bin_dir())
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args(argv)
    cases = plan()
    results = ask_every_version(cases, VERSIONS, args.bin_dir, args.jobs, run)
    lines = [json.dumps(stored(case, results[case["id"]]), sort_keys=True) for case in cases]
    if args.check:
        return write_or_check(OUT / "cases.jsonl", lines, check=True)
    (OUT / "cm.yaml").write_text(OBJECT, encoding="utf-8")
    write_or_check(OUT / "cases.jsonl", lines, check=False)
    differ = sum(1 for c in cases if len({json.dumps(r) for r in results[c["id"]].values()}) > 1)
    print(f"{len(cases)} cases recorded; {differ} differ between kubectl versions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
