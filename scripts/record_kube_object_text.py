#!/usr/bin/env python3
"""Record how kubectl reads the YAML object file (``-f``) and prints long keys.

The plan below is a set of object texts built on a small ConfigMap: tabs in every
position a block or flow YAML file can hold one, every character after a backslash in a
double-quoted string (and the longer ``\\x``/``\\u``/``\\U`` escapes), anchors defined
twice or holding themselves, ``%YAML``/``%TAG`` directives and ``---`` separators in
their many forms, text after a ``...`` document end, files without a final newline or
with ``\\r\\n`` line ends, and (printed with ``-o yaml``) map
keys around go-yaml's 128-byte limit for the simple ``key: value`` form.  Each runs

    kubectl patch --local -f obj.yaml --type merge -p PATCH -o json|yaml

(``PATCH`` is ``{}`` unless the case names one) in a scratch folder through kubectl
1.32, 1.27 and 1.33; kubectl 1.32's stdout, stderr and exit code are stored in
``tests/data/kube/object-text/cases.jsonl`` (one case a line), with ``same_in`` listing
the versions that answered the same and the answer of any version that did not.
``tests/test_kube_io_reader_object_text.py`` replays them through ``cfgpatch kube
patch`` without kubectl.

Usage:
    scripts/record_kube_object_text.py [--bin-dir DIR] [--check] [--jobs N]

``--bin-dir`` defaults to the folder of the ``kubectl`` on PATH (which holds
``kubectl.1.27`` ... ``kubectl.1.33``).  ``--check`` records again and reports cases
whose result changed, writing nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import string
import subprocess
import sys
import tempfile
from pathlib import Path

from kubectl_versions import answer_of, ask_every_version, default_bin_dir, write_or_check

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "kube" / "object-text"
VERSIONS = ("1.32", "1.27", "1.33")
HEAD = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"

#: Tabs: (name, text after HEAD).
TABS = {
    "indent": "data:\n\ta: x\n",
    "indent-after-spaces": "data:\n  \ta: x\n",
    "after-colon": "data:\n  a:\tx\n",
    "after-colon-top": "data:\t{a: x}\n",
    "before-comment": "data:\n  a: x\t# note\n",
    "before-comment-spaces": "data:\n  a: x \t # note\n",
    "eol-after-value": "data:\n  a: x\t\n  b: y\n",
    "eol-after-key": "data:\t\n  a: x\n",
    "eol-after-key-comment": "data:\t# c\n  a: x\n",
    "before-colon": "data:\n  a\t: x\n",
    "inside-plain": "data:\n  a: x\ty\n",
    "inside-key": "data:\n  a\tb: x\n",
    "continuation": "data:\n  a: x\n\ty\n",
    "continuation-indented": "data:\n  a: x\n   \ty\n",
    "continuation-deep": "data:\n  a: x\n    \ty\n",
    "only-line": "data:\n\t\n  a: x\n",
    "comment-line": "data:\n\t# c\n  a: x\n",
    "comment-line-indented": "data:\n  a: x\n  \t# c\n",
    "top-key": "\tdata: {a: x}\n",
    "after-dash": "spec:\n  l:\n  -\tx\n",
    "after-dash-map": "spec:\n  l:\n  -\ta: b\n",
    "after-dash-value": "spec:\n  l:\n  - a:\tb\n",
    "flow-after-comma": "data: {a: x,\tb: y}\n",
    "flow-after-colon": "data: {a:\tx}\n",
    "flow-after-brace": "data: {\ta: x}\n",
    "flow-before-brace": "data: {a: x\t}\n",
    "flow-lines": "data: {a: x,\n\tb: y}\n",
    "flow-seq": "spec: [\tx,\ty\t]\n",
    "question": "data:\n  ?\ta\n  : x\n",
    "complex-value": "data:\n  ? a\n  :\tx\n",
    "double-quoted": 'data:\n  a: "x\ty"\n',
    "double-quoted-after": 'data:\n  a: "x"\t\n',
    "single-quoted": "data:\n  a: 'x\ty'\n",
    "single-quoted-after": "data:\n  a: 'x'\t# c\n",
    "literal-content": "data:\n  a: |\n    x\ty\n",
    "literal-leading": "data:\n  a: |\n    \tx\n",
    "literal-indent": "data:\n  a: |\n\tx\n",
    "literal-indicator": "data:\n  a:\t|\n    x\n",
    "literal-after-indicator": "data:\n  a: |\t\n    x\n",
    "folded-content": "data:\n  a: >\n    x\n    \ty\n",
    "literal-end": "data:\n  a: |\n    x\n\tb: y\n",
    "literal-blank-line": "data:\n  a: |\n  \t\n    x\n",
    "literal-inner-blank-line": "data:\n  a: |\n    x\n  \t\n    y\n",
    "literal-indicator-comment": "data:\n  a: |-\t# c\n    x\n",
    "literal-indicator-content": "data:\n  a: |\tx\n",
    "literal-explicit": "data:\n  a: |2\n    \tx\n",
    "literal-explicit-short": "data:\n  a: |4\n  \tx\n",
    "after-verbatim-tag": "data:\n  a: !<tag:yaml.org,2002:str>\tx\n",
    "after-local-tag": "data:\n  a: !x\tb\n",
    "after-anchor": "data:\n  a: &v\tx\n  b: *v\n",
    "after-alias": "data:\n  a: &v x\n  b: *v\t\n",
    "after-tag": "data:\n  a: !!str\tx\n",
    "after-doc-start": "---\tdata: {a: x}\n",
    "doc-start-line": "---\t\n",
    "after-doc-end": "data:\n  a: x\n...\t\n",
}
#: Double-quoted escapes: every printable ASCII character after the backslash, and
#: longer forms.
ESCAPE_CHARS = [c for c in string.printable if c not in "\n\r\x0b\x0c"]
ESCAPE_LONG = {"x41": r"\x41", "x-short": r"\x4", "x-upper": r"\xE9", "u-e9": r"\u00e9",
               "u-short": r"\u00e", "u-surrogate": r"\ud800", "u-pair": r"\ud83d\ude00",
               "big-u": r"\U0001F600", "big-u-short": r"\U0001F60", "big-u-high": r"\U00110000",
               "big-u-max": r"\U0010FFFF", "big-u-surrogate": r"\U0000D800",
               "line-continuation": "\\\n    y", "backslash-end": "\\"}
ANCHORS = {
    "redefined": "data:\n  a: &v one\n  b: &v two\n  c: *v\n",
    "redefined-between": "data:\n  a: &v one\n  b: *v\n  c: &v two\n  d: *v\n",
    "redefined-map": "x: &v {a: b}\ny: &v {c: d}\ndata: *v\n",
    "redefined-kind": "x: &v one\ny: &v {c: d}\ndata: *v\n",
    "redefined-inner": "data:\n  a: &v one\n  b: [&v two, *v]\n  c: *v\n",
    "redefined-merge": "x: &v {a: b}\ny: &v {c: d}\ndata:\n  <<: *v\n",
    "self-seq": "spec: &v [*v]\n",
    "self-map": "spec: &v {a: *v}\n",
    "self-redefined": "x: &v one\nspec: &v [*v]\n",
    "self-deep": "spec: &v {a: [b, {c: *v}]}\n",
    "self-after-error": "spec: &v [*v]\nx: [\n",
    "inner-redefined-in-self": "spec: &v [&v x, *v]\n",
    "undefined": "data:\n  a: *nope\n",
    "redefined-key": "data:\n  &k a: x\n  &k b: y\n  *k : z\n",
}
DIRECTIVES = {  # whole texts: {H} is HEAD
    "yaml11": "%YAML 1.1\n---\n{H}",
    "yaml12": "%YAML 1.2\n---\n{H}",
    "tag": "%TAG !e! tag:e.com,2000:\n---\n{H}",
    "tag-used": "%TAG !e! tag:yaml.org,2002:\n---\n{H}data:\n  a: !e!str x\n",
    "unknown": "%FOO bar\n---\n{H}",
    "no-doc-start": "%YAML 1.1\n{H}",
    "only": "%YAML 1.1\n",
    "only-no-newline": "%YAML 1.1",
    "after-comment": "# c\n%YAML 1.1\n---\n{H}",
    "after-blank": "\n%YAML 1.1\n---\n{H}",
    "start-spaces": "%YAML 1.1\n--- \n{H}",
    "start-comment": "%YAML 1.1\n--- # c\n{H}",
    "start-content": "%YAML 1.1\n--- {H}",
    "two": "%YAML 1.1\n%TAG !e! tag:e.com,2000:\n---\n{H}",
    "after-separator": "---\n%YAML 1.1\n---\n{H}",
    "after-blank-separator": "\n---\n%YAML 1.1\n---\n{H}",
    "after-comment-separator": "# c\n---\n%YAML 1.1\n---\n{H}",
    "in-second-document": "---\n---\n%YAML 1.1\n---\n{H}",
    "after-document": "{H}---\n%YAML 1.1\n---\n{H}",
    "after-doc-end": "{H}...\n%YAML 1.1\n",
    "indented": "  %YAML 1.1\n---\n{H}",
    "bom": "\ufeff%YAML 1.1\n---\n{H}",
}
SEPARATORS = {
    "start": "---\n{H}",
    "start-space": "--- \n{H}",
    "start-tab": "---\t\n{H}",
    "start-comment": "--- # c\n{H}",
    "start-comment-tight": "---# c\n{H}",
    "start-crlf": "---\r\n{H}",
    "start-content": "--- {H}",
    "start-x": "---x\n{H}",
    "start-flow": "--- {{a: b}}\n{H}",
    "four-dashes": "----\n{H}",
    "indented": "   ---\n{H}",
    "two": "---\n---\n{H}",
    "blank-between": "---\n\n---\n{H}",
    "end": "{H}---",
    "end-newline": "{H}---\n",
    "end-x": "{H}--- x\n",
    "bom": "\ufeff---\n{H}",
    "bom-between": "---\n\ufeff{H}",
    "error-line-start": "---\n{H}bad: [\n",
    "error-line-two": "---\n---\n{H}bad: [\n",
    "error-line-comment": "--- # c\n{H}bad: [\n",
    "error-line-blank": "---\n\n---\n{H}bad: [\n",
    "doc-end-then-text": "{H}...\nx: y\n",
    "doc-end-then-bad": "{H}...\nx: [\n",
    "doc-end-then-doc": "{H}...\n---\n",
    "doc-end-then-tab": "{H}...\n\tx\n",
    "doc-start-inline": "--- !!map\n{H}",
}
#: Line ends: kubectl's line reader ends every line with \n, the last one too, and
#: turns \r\n into \n.
LINES = {
    "eof-literal": "data:\n  a: |\n    x",
    "eof-literal-strip": "data:\n  a: |-\n    x",
    "eof-literal-keep": "data:\n  a: |+\n    x",
    "eof-folded": "data:\n  a: >\n    x\n    y",
    "eof-plain": "data:\n  a: x",
    "eof-quote-open": "data:\n  a: 'x",
    "eof-quote-alone": "'",
    "eof-double-lines": 'data:\n  a: "x\n    y"',
    "crlf-literal": "data:\r\n  a: |\r\n    x\r\n    y\r\n",
    "crlf-eof-literal": "data:\r\n  a: |\r\n    x\r",
    "crlf-double": 'data:\r\n  a: "x\r\n    y"\r\n',
    "cr-inside-double": 'data:\n  a: "x\ry"\n',
}
#: Block scalar headers: a comment may follow the indicators directly.
BLOCK = {
    "comment-tight": "data:\n  a: |#c\n    x\n",
    "indent-comment-tight": "data:\n  a: |2#c\n    x\n",
    "strip-comment-tight": "data:\n  a: |-#c\n    x\n",
    "folded-comment-tight": "data:\n  a: >#\n    x\n",
    "comment-tight-eof": "data:\n  a: |#c",
    "content-after-indicator": "data:\n  a: |x\n    y\n",
    "indent-zero": "data:\n  a: |0\n    x\n",
}
#: -o yaml of keys near 128 bytes (characters of 1, 2 and 4 bytes; quoted and plain).
KEYS = {"ascii-128": "k" * 128, "ascii-129": "k" * 129, "e-64": "\u00e9" * 64,
        "e-65": "\u00e9" * 65, "e-63-kk": "\u00e9" * 63 + "kk", "e-63-kkk": "\u00e9" * 63 + "kkk",
        "emoji-32": "\U0001F600" * 32, "emoji-33": "\U0001F600" * 33,
        "emoji-31-k4": "\U0001F600" * 31 + "kkkk", "emoji-31-k5": "\U0001F600" * 31 + "kkkkk",
        "hash-128": "#" + "k" * 127, "hash-129": "#" + "k" * 128, "bool-128": "y" * 128,
        "space-128": "k" * 127 + " ", "quote-128": "'" + "k" * 127, "ascii-127": "k" * 127,
        "cr-start": "\ra", "cr-middle": "a\rb", "crlf": "a\r\nb", "cr-only": "\r",
        "ls-start": "\u2028a", "nel-start": "\x85a", "nel-end": "a\x85", "nel-two": "\x85\x85a"}
#: The same rules in the -p text (a YAML patch), which go-yaml reads the same way.
PATCH_TEXTS = {
    "anchor-redefined": "x: &v one\ny: &v two\ndata:\n  c: *v\n",
    "anchor-self": "data: &v {c: *v}\n",
    "tab-after-tag": "data:\n  c: !!str\tx\n",
    "tab-after-indicator": "data:\n  c: |\t\n    x\n",
    "tab-literal-indent": "data:\n  c: |\n\tx\n",
    "tab-literal-leading": "data:\n  c: |\n    \tx\n",
    "escape-big-u-high": 'data:\n  c: "\\U00110000"\n',
    "indicator-content": "data:\n  c: |\tx\n",
}


#: Files of several objects (kubectl patches and prints each in turn, gathers the
#: errors of single objects and stops at a syntax error): (name, text, patch, type,
#: output); ``{A}``, ``{B}``, ``{C}`` are ConfigMaps a, b and c, ``{D}`` a Deployment.
_A = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  x: \"1\"\n"
_B = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n"
_C = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  x: \"1\"\n"
_D = ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n"
      "    spec:\n      containers:\n      - name: app\n        image: app:1\n"
      "      - name: side\n        image: side:1\n")
_MERGE = '{"data":{"y":"2"}}'
_TEST = '[{"op":"test","path":"/data/x","value":"1"},{"op":"add","path":"/data/z","value":"9"}]'
_SET_IMAGE = '{"spec":{"template":{"spec":{"containers":[{"name":"side","image":"side:2"}]}}}}'
OBJECTS = {
    "two-json": ("{A}---\n{B}", _MERGE, "merge", "json"),
    "two-yaml": ("{A}---\n{B}", _MERGE, "merge", "yaml"),
    "two-name": ("{A}---\n{B}", _MERGE, "merge", "name"),
    "two-patched": ("{A}---\n{B}", _MERGE, "merge", None),
    "two-no-change": ("{A}---\n{C}", '{"data":{"x":"1"}}', "merge", None),
    "two-one-changed": ("{A}---\n{B}", '{"data":{"x":"1"}}', "merge", None),
    "strategic-two": ("{D}---\n{D}", _SET_IMAGE, "strategic", "json"),
    "strategic-unknown-kind": ("{A}---\napiVersion: x.io/v1\nkind: Foo\nmetadata:\n  "
                               "name: f\n---\n{C}", _MERGE, "strategic", "name"),
    "json-test-fails-middle": ("{A}---\n{B}---\n{C}", _TEST, "json", "json"),
    "json-test-fails-twice": ("{A}---\n{B}---\n{B}", _TEST, "json", "name"),
    "json-all-fail": ("{B}---\n{B}", _TEST, "json", "json"),
    "json-patch-unparsable": ("{A}---\n{B}", '[{"op":', "json", "json"),
    "merge-patch-unparsable": ("{A}---\n{B}", '{"data":', "merge", "json"),
    "yaml-patch-unparsable": ("{A}---\n{B}", "data: [", "merge", "json"),
    "syntax-error-second": ("{A}---\n{B}data: [\n---\n{C}", _MERGE, "merge", "name"),
    "syntax-error-first": ("{B}data: [\n---\n{A}", _MERGE, "merge", "name"),
    "syntax-error-third": ("{A}---\n{C}---\n{B}data: [\n", _MERGE, "merge", "name"),
    "bad-separator-third": ("{A}---\n{B}---x\n{C}", _MERGE, "merge", "name"),
    "bad-separator-second": ("{A}---x\n{B}", _MERGE, "merge", "name"),
    "missing-kind-middle": ("{A}---\napiVersion: v1\nmetadata:\n  name: n\n---\n{C}",
                            _MERGE, "merge", "name"),
    "scalar-middle": ("{A}---\nfoo\n---\n{C}", _MERGE, "merge", "name"),
    "sequence-middle": ("{A}---\n- x\n---\n{C}", _MERGE, "merge", "name"),
    "all-missing-kind": ("metadata:\n  name: n\n---\nmetadata:\n  name: m\n", _MERGE,
                         "merge", "json"),
    "empty-between": ("{A}---\n---\n# only a comment\n---\nnull\n---\n{B}", _MERGE,
                      "merge", "name"),
    "list-two-items": ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: "
                       "ConfigMap\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: "
                       "ConfigMap\n  metadata:\n    name: b\n", _MERGE, "merge", "json"),
    "list-then-object": ("apiVersion: v1\nkind: ConfigMapList\nitems:\n- metadata:\n    "
                         "name: a\n---\n{C}", _MERGE, "merge", "yaml"),
    "list-item-not-object": ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  "
                             "kind: ConfigMap\n  metadata:\n    name: a\n- x\n---\n{C}",
                             _MERGE, "merge", "name"),
    "namespace-mismatch-second": ("{A}---\n{B}  namespace: other\n", _MERGE, "merge", "name"),
    "result-without-kind-second": ("{A}---\n{B}", '[{"op":"remove","path":"/kind"}]', "json",
                                   "name"),
    "json-stream": ('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}\n'
                    '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"b"}}\n',
                    _MERGE, "merge", "name"),
    "nel-key-second": ("{A}---\n" + _B + 'data:\n  "k\\N": v\n', _MERGE, "merge", "yaml"),
    "nel-key-first": (_B + 'data:\n  "k\\N": v\n---\n{A}', _MERGE, "merge", "yaml"),
    "json-truncated": ('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}', _MERGE,
                       "merge", "json"),
    "json-truncated-string": ('{"apiVersion":"v1","kind":"Conf', _MERGE, "merge", "json"),
    "json-open-brace": ("{", _MERGE, "merge", "json"),
    "json-stream-first-truncated": ('{"apiVersion":"v1","kind":"ConfigMap"', _MERGE, "merge",
                                    "name"),
    "json-stream-truncated": ('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}\n'
                              '{"apiVersion":"v1","kind":', _MERGE, "merge", "name"),
    "json-stream-garbage": ('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}} x '
                            '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}',
                            _MERGE, "merge", "name"),
    "json-stream-array": ('{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}\n'
                          '["x"]\n{"apiVersion":"v1","kind":"ConfigMap","metadata":'
                          '{"name":"c"}}', _MERGE, "merge", "json"),
    "list-item-without-api-version": ("kind: List\nitems:\n- kind: ConfigMap\n  metadata:\n"
                                      "    name: a\n- apiVersion: v1\n  kind: ConfigMap\n"
                                      "  metadata:\n    name: b\n---\n{C}", _MERGE, "merge",
                                      "name"),
    "crash-second": ("{A}---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n"
                     "  tolerations:\n  - {key: k, operator: Exists}\n---\n{C}",
                     '{"spec":{"$setElementOrder/tolerations":[{"key":"k"}]}}', "strategic",
                     "name"),
    "errors-grouped": ("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\n---\n"
                       "- a\n---\nfoo\n", '{"kind":null}', "merge", "yaml"),
    "errors-grouped-repeat": ("{C}---\nkind: List\nitems:\n- kind: ConfigMap\n  metadata: "
                              "{name: q}\n---\nkind: List\nitems:\n- kind: ConfigMap\n  "
                              "metadata: {name: r}\n---\n{B}", _TEST, "json", "json"),
    "errors-unread-only-repeat": ("- a\n---\n- b\n", _MERGE, "merge", "json"),
    "errors-unread-then-syntax": ("foo\n---\n{A}---\n{B}x: [\n", _TEST, "json", "name"),
    "json-then-yaml-piece": ('---\n{"apiVersion":"v1","kind":"ConfigMap","metadata":'
                             '{"name":"a"}}\n---\n{B}', _MERGE, "merge", "name"),
}


def _yaml_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def plan() -> list[dict]:
    """Every case: ``id``, ``object`` (text), ``patch`` (text) and ``output``."""
    cases: list[dict] = []

    def add(cid: str, obj: str, patch: str = "{}", output: str | None = "json",
            kind: str = "merge") -> None:
        cases.append({"id": cid, "object": obj, "patch": patch, "output": output,
                      "type": kind})

    for name, text in TABS.items():
        add(f"tab-{name}", HEAD + text if not text.startswith("---") else text + HEAD)
    for ch in ESCAPE_CHARS:
        add(f"escape-{ord(ch):02x}", HEAD + f'data:\n  a: "x\\{ch}y"\n')
    for name, escape in ESCAPE_LONG.items():
        add(f"escape-{name}", HEAD + f'data:\n  a: "x{escape}"\n')
    for name, text in ANCHORS.items():
        add(f"anchor-{name}", HEAD + text)
    for name, text in DIRECTIVES.items():
        add(f"directive-{name}", text.replace("{H}", HEAD))
    for name, text in SEPARATORS.items():
        add(f"separator-{name}", text.replace("{H}", HEAD).replace("{{", "{").replace("}}", "}"))
    for name, text in LINES.items():
        add(f"lines-{name}", HEAD + text)
    for name, text in BLOCK.items():
        add(f"block-{name}", HEAD + text)
    for name, key in KEYS.items():
        add(f"key-{name}", HEAD + f"data:\n  {_yaml_string(key)}: v\n", output="yaml")
    for name, text in PATCH_TEXTS.items():
        add(f"patch-{name}", HEAD, patch=text)
    for name, (text, patch, kind, output) in OBJECTS.items():
        text = text.replace("{A}", _A).replace("{B}", _B).replace("{C}", _C).replace("{D}", _D)
        add(f"objects-{name}", text, patch=patch, output=output, kind=kind)
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "case ids must be unique"
    return cases


def argv_of(case: dict) -> list[str]:
    argv = ["patch", "--local", "-f", "obj.yaml", "--type", case["type"], "-p",
            case["patch"]]
    if case["id"] == "objects-namespace-mismatch-second":
        argv += ["-n", "default"]
    return argv + (["-o", case["output"]] if case["output"] else [])


def run(kubectl: str, case: dict) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        (Path(scratch) / "obj.yaml").write_bytes(case["object"].encode("utf-8"))
        proc = subprocess.run([kubectl, *argv_of(case)], cwd=scratch, capture_output=True,
                              timeout=120)
    return answer_of(proc)


def stored(case: dict, results: dict) -> dict:
    out = {"id": case["id"], "object": case["object"], "argv": argv_of(case)}
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
    write_or_check(OUT / "cases.jsonl", lines, check=False)
    differ = sum(1 for c in cases if len({json.dumps(r) for r in results[c["id"]].values()}) > 1)
    print(f"{len(cases)} cases recorded; {differ} differ between kubectl versions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
