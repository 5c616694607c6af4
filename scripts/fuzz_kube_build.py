#!/usr/bin/env python3
"""Differential fuzzing of ``kube build`` against ``kubectl kustomize``, by hand.

Each round writes a small tree to a scratch folder, builds it with kubectl 1.32's
kustomize and with ``kube build`` (in process), and counts the trees where the two do not
answer the same (exit code, output, standard error; bytes that are not UTF-8 kept as
surrogate escapes).  The first differences are printed with the files that caused them.

Kinds of trees:

* ``damaged``: a resource, a patch and a kustomization with bytes that are not UTF-8,
  UTF-16, tabs and control characters inserted (``tests/kube_build_trees.damaged_tree``,
  also drawn by the live test);
* ``yaml``: a ConfigMap with one or two YAML fragments inserted (anchors, tags,
  directives, document markers, flow and block indicators, quotes);
* ``env``: an env file for a ConfigMap generator made of random pieces (line breaks of
  every kind, byte order marks, white space, bytes that are not UTF-8).

    .venv/bin/python scripts/fuzz_kube_build.py {damaged,yaml,env} [--seeds 0:400] [--show 6]

Found differences go to the kustomize corpus (tests/data/kustomize/trees) once fixed; the
ones left are listed in the team notes.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from kube_build_trees import damaged_tree  # noqa: E402
from kustomize_corpus import run_ours  # noqa: E402
from test_kube_build_live import kubectl_binaries, kustomize  # noqa: E402

FRAGMENTS = ("\t", " ", "\n", "#", "---", "\n---\n", "...", "&v", "*v", "!!str", "!x", "|",
             "|-", ">", "|2", "-", "- ", ":", ": ", "?", "{", "}", "[", "]", ",", '"', "'",
             "\\", "%YAML 1.1\n", "a", "1", "0x1F", "yes", "~", "null", "1e3", "2024-01-01",
             "\u00e9", "\U0001F600", "\u00a0", "<<: *v\n")
CONFIG_MAP = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n  labels:\n    app: web\n"
              "data:\n  a: x\n  b: &v y\n  c: *v\n  d: |\n    l1\n    l2\n  e: 'q'\n"
              "  f: \"d\"\n  g: [1, 2]\n  h: {k: v}\n")
HEAD = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n"
ENV_PIECES = (b"A=1", b"B", b"=x", b"#c", b" ", b"\t", b"\r", b"\n", b"\r\n", b"\xef\xbb\xbf",
              "\x85".encode(), "\u2028".encode(), b"\x0b", b"\x1c", "\xa0".encode(), b"\xe9",
              b"\xff", b"K_1=v=w", b"'q'", b'"d"', b"\x00")


def yaml_tree(rng: random.Random, root: Path) -> Path:
    text = CONFIG_MAP
    for _ in range(rng.randint(1, 2)):
        at = rng.randint(len(HEAD), len(text))
        text = text[:at] + rng.choice(FRAGMENTS) + text[at:]
    (root / "kustomization.yaml").write_text(
        "resources:\n- cm.yaml\nnamePrefix: p-\ncommonLabels:\n  team: a\n")
    (root / "cm.yaml").write_text(text)
    return root


def env_tree(rng: random.Random, root: Path) -> Path:
    (root / "kustomization.yaml").write_text(
        "configMapGenerator:\n- name: c\n  envs:\n  - a.env\n")
    (root / "a.env").write_bytes(b"".join(rng.choice(ENV_PIECES)
                                          for _ in range(rng.randint(1, 12))))
    return root


KINDS: dict[str, Callable[[random.Random, Path], Path]] = {
    "damaged": damaged_tree, "yaml": yaml_tree, "env": env_tree}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=sorted(KINDS))
    parser.add_argument("--seeds", default="0:400", help="first:last (last excluded)")
    parser.add_argument("--show", type=int, default=6, help="differences printed in full")
    args = parser.parse_args(argv)
    binary = kubectl_binaries().get("1.32")
    if binary is None:
        raise SystemExit("kubectl.1.32 is not installed next to the kubectl on PATH")
    first, last = (int(part) for part in args.seeds.split(":"))
    differ = exits = 0
    for seed in range(first, last):
        with tempfile.TemporaryDirectory() as scratch:
            folder = KINDS[args.kind](random.Random(seed), Path(scratch))
            ours, theirs = run_ours(folder), kustomize(binary, folder)
            if ours == theirs:
                continue
            differ += 1
            exits += ours[0] != theirs[0]
            if differ <= args.show:
                files = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
                print(f"seed {seed}: {files!r}")
                print(f"  kubectl: {theirs!r}")
                print(f"  ours:    {ours!r}")
    print(f"{args.kind}: {differ} of {last - first} trees differ, {exits} of them in the "
          "exit code")
    return 0


if __name__ == "__main__":
    sys.exit(main())
