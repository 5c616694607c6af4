"""The files of ``cfgpatch kube`` commands read as kubectl reads them: bytes (``-`` is
standard input), decoded by kubectl's file reader, a missing file in kubectl's words."""

from __future__ import annotations

import os
import sys

from ..errors import INVALID_ARGUMENTS, KubeError


def source_name(path: str) -> str:
    """The ``-f`` file as kubectl's messages name it (``STDIN`` for ``-``)."""
    return "STDIN" if path == "-" else path


def read_object_file(path: str) -> str:
    return read_file(path, 'the path "{path}" does not exist')


def read_file(path: str, missing: str) -> str:
    """A manifest's text as kubectl's file reader gives it (byte order marks, bytes
    that are not UTF-8: :mod:`cfgpatch.kube.io.filebytes`)."""
    from ..kube.io import filebytes

    return filebytes.decode(read_bytes(path, missing))


def read_bytes(path: str, missing: str) -> bytes:
    if path == "-":
        stdin = getattr(sys.stdin, "buffer", None)
        return stdin.read() if stdin is not None else sys.stdin.read().encode("utf-8")
    if not os.path.exists(path):
        raise KubeError(missing.format(path=path))
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise KubeError(f"cannot read {path}: {exc}", code=INVALID_ARGUMENTS) from None
