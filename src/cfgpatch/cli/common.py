"""Helpers shared by the sub-commands: reading inputs and reporting errors."""

from __future__ import annotations

import json
import sys
from typing import Any

from ..errors import INVALID_INPUT, CfgPatchError, InvalidInput
from ..jsonvalue import parse


def read_bytes(path: str) -> bytes:
    """The bytes of ``path`` (``-`` is standard input); raise a clear error if unreadable."""
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}", code=INVALID_INPUT) from None


def read_text(path: str) -> str:
    """The UTF-8 text of ``path`` (``-`` is standard input)."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = "standard input" if path == "-" else path
        raise InvalidInput(
            f"{where} is not UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start}",
            code=INVALID_INPUT,
        ) from None


def read_json(path: str) -> Any:
    """Parse ``path`` as strict JSON, naming the file in the error."""
    text = read_text(path)
    try:
        return parse(text)
    except CfgPatchError as error:
        where = "standard input" if path == "-" else path
        error.message = f"{where}: {error.message}"
        raise


def check_stdin_once(*paths: str) -> None:
    if sum(path == "-" for path in paths) > 1:
        raise InvalidInput(
            "only one input can be read from standard input ('-')", code=INVALID_INPUT
        )


def print_json(value: Any, *, pretty: bool = False) -> None:
    """Print canonical text (or indented JSON with sorted keys when ``pretty``)."""
    from ..jsonvalue import canonical

    if pretty:
        sys.stdout.write(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    else:
        sys.stdout.write(canonical(value) + "\n")


def report(error: CfgPatchError) -> int:
    """Print ``error`` for a person on standard error; return the exit code 1."""
    sys.stderr.write(f"cfgpatch: {error.describe()}\n")
    return 1


def write_stderr(text: str) -> None:
    """``text`` on standard error, with the bytes of a file that were not UTF-8 (kept as
    ``surrogateescape`` characters) written as they were, as kubectl and kustomize print
    them."""
    buffer = getattr(sys.stderr, "buffer", None)
    if buffer is None or not any("\udc80" <= ch <= "\udcff" for ch in text):
        sys.stderr.write(text)
        return
    sys.stderr.flush()
    buffer.write(text.encode("utf-8", "surrogateescape"))
    buffer.flush()
