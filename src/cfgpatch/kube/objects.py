"""Objects in and out as kubectl reads and prints them: :func:`read` and :func:`dump`.

:func:`read` reads the text of a ``-f`` file (YAML, a JSON object or a JSON stream,
``List`` documents flattened into their items) into plain JSON values, exactly as
kubectl's decoder would (YAML 1.1 scalars, Go's number rules), with a type note for
every scalar whose type is not what it looks like (``on`` read as ``true``, ``010`` as
8).  :func:`dump` prints an object as ``kubectl get -o yaml`` / ``-o json`` would.

Both take and give plain values; the reading and printing machinery is imported on
first use so that ``import cfgpatch.kube`` stays fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import KubeError

if TYPE_CHECKING:
    from .io.notes import TypeNote

#: The output formats of :func:`dump` (kubectl's ``-o json`` and ``-o yaml``).
FORMATS = ("json", "yaml")


@dataclass(frozen=True)
class ReadObject:
    """One object of a file: its value and the type notes of its scalars (``pointer``
    into ``value``, the text as ``written``, the ``value`` kubectl made of it)."""

    value: dict[str, Any]
    notes: tuple[TypeNote, ...] = ()


@dataclass(frozen=True)
class ReadResult:
    """What :func:`read` found: the objects in file order and the errors of the
    documents kubectl could not take as objects (a document without ``kind``, a scalar
    document, a bad ``List`` item).  kubectl reports those after the objects and goes
    on reading, so they are values here; an error that stops the reading (YAML or JSON
    that does not parse, a bad ``---`` line) is raised instead."""

    objects: list[ReadObject] = field(default_factory=list)
    errors: list[KubeError] = field(default_factory=list)

    @property
    def values(self) -> list[dict[str, Any]]:
        """The objects' values alone."""
        return [item.value for item in self.objects]


def read(text: str | bytes, source: str = "-") -> ReadResult:
    """The objects of ``text`` as ``kubectl patch -f`` / ``kubectl apply -f`` read them.

    ``text``: the file's text, or its bytes (decoded as kubectl does: a UTF-8 or UTF-16
    byte order mark, bytes that are not UTF-8); ``source``: the file's name as error
    messages quote it.  Raises :class:`~cfgpatch.errors.KubeError` (kubectl's text) when
    the reading stops; an empty file is a ``KubeError`` too (``no objects passed to
    ...``), as kubectl says.
    """
    from .io import filebytes, reader, unstructured

    if isinstance(text, bytes):
        text = filebytes.decode(text)
    found = ReadResult()
    for item in reader.load_objects(text, source):
        if isinstance(item, KubeError):
            found.errors.append(item)
        else:
            value, notes = item
            found.objects.append(ReadObject(value, tuple(notes)))
    if not found.objects and not found.errors:
        raise unstructured.no_objects(f"{source} holds no object")
    return found


def read_one(text: str | bytes, source: str = "-") -> ReadObject:
    """The one object of ``text`` (``kube patch``'s and ``kube diff``'s inputs): a file
    of several objects is a :class:`~cfgpatch.errors.KubeError` with code
    ``multiple documents``."""
    from .io import filebytes, reader

    if isinstance(text, bytes):
        text = filebytes.decode(text)
    value, notes = reader.load_object(text, source)
    return ReadObject(value, tuple(notes))


def dump(obj: Any, format: str = "yaml") -> str:  # noqa: A002
    """``obj`` as ``kubectl get -o yaml`` (or ``-o json``) prints it, byte for byte
    (``metadata.managedFields`` left out, as kubectl does).  An unknown format, or a
    value kubectl cannot print, is a :class:`~cfgpatch.errors.KubeError`."""
    from .io import writer

    if format not in FORMATS:
        raise KubeError(f"unable to match a printer suitable for the output format {format!r}",
                        hint="use json or yaml")
    return writer.dump(obj, format)
