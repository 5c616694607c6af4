"""Array pairs that are hard for an alignment: reversals, rotations, interleavings,
shuffles, block moves, many equal elements, unrelated arrays (shared by the tests of
cfgpatch.lcs and benchmarks/bench_edges.py)."""

from __future__ import annotations

import random

KINDS = ("reversal", "rotation", "interleave", "shuffle", "blocks", "equal", "random")


def transform(kind: str, a: list, rng: random.Random, alphabet: int) -> list:
    """``a`` reordered the way ``kind`` says (``random``: an unrelated array)."""
    n = len(a)
    if kind == "reversal":
        return a[::-1]
    if kind == "rotation":
        k = rng.randrange(n) if n else 0
        return a[k:] + a[:k]
    if kind == "interleave":
        half = a[: n // 2], a[n // 2 :]
        out, picks = [], [0, 0]
        while picks[0] < len(half[0]) or picks[1] < len(half[1]):
            side = rng.randrange(2) if all(p < len(h) for p, h in zip(picks, half)) else (
                0 if picks[0] < len(half[0]) else 1)
            out.append(half[side][picks[side]])
            picks[side] += 1
        return out
    if kind == "shuffle":
        out = a[:]
        rng.shuffle(out)
        return out
    if kind == "blocks":
        size = max(1, n // max(1, rng.randrange(2, 12)))
        blocks = [a[k : k + size] for k in range(0, n, size)]
        rng.shuffle(blocks)
        return [x for block in blocks for x in block]
    if kind == "equal":
        return [a[0] if a else 0] * rng.randrange(n + 2)
    return [rng.randrange(alphabet) for _ in range(rng.randrange(n + 2))]


def edit(b: list, rng: random.Random, count: int, fresh: int) -> list:
    """``b`` with ``count`` deletions, insertions of new values (from ``fresh`` on) and
    duplications of its own values."""
    out = b[:]
    for step in range(count):
        roll = rng.randrange(3)
        if roll == 0 and out:
            del out[rng.randrange(len(out))]
        elif roll == 1:
            out.insert(rng.randrange(len(out) + 1), fresh + step)
        elif out:
            out.insert(rng.randrange(len(out) + 1), out[rng.randrange(len(out))])
    return out


def pair(kind: str, n: int, alphabet: int, edits: int, seed: int) -> tuple[list, list]:
    """An array of ``n`` values (distinct when ``alphabet >= n``) and its adversary."""
    rng = random.Random(seed)
    a = list(range(n)) if alphabet >= n else [rng.randrange(alphabet) for _ in range(n)]
    b = transform(kind, a, rng, max(alphabet, 1))
    return a, edit(b, rng, edits, 10 * (n + alphabet) + 1)
