"""The ``-f`` inputs of ``cfgpatch kube apply``, read as ``kubectl apply`` reads them.

``-f`` may be given several times, each a comma-separated list of paths: ``-`` for
standard input, a file (read whatever its name), or a directory, whose ``.json``,
``.yaml`` and ``.yml`` files are read in the order of their names (sub-directories
too, in their place, with ``-R``), as cli-runtime's ``ExpandPathsToFileVisitors``
walks them.  A path that does not exist stops everything before any object is
applied; paths that give no file at all are refused as kubectl refuses them.

Reading gathers what kubectl gathers: the objects (each with the file kubectl names
in its messages), the objects in a namespace other than ``-n`` (refused one by one)
and the documents that could not be read (one group across the files; a file that
stops parsing ends the reading of that file only).
"""

from __future__ import annotations

import os
import posixpath
import sys

from ..errors import MULTIPLE_DOCUMENTS, KubeError
from ..records import dataclass, field
from .kube import _check_namespace, _read_file, _several_documents, source_name

#: The extensions of the files kubectl reads in a directory (exact, case-sensitive).
EXTENSIONS = (".json", ".yaml", ".yml")


@dataclass
class Manifests:
    """What the ``-f`` inputs hold, as kubectl's visitors gather it."""

    #: (object, the file it came from as kubectl names it)
    objects: list[tuple[dict, str]] = field(default_factory=list)
    #: objects in a namespace other than ``-n``, in the order read
    elsewhere: list[KubeError] = field(default_factory=list)
    #: documents that are no object, and the errors that ended a file's reading
    unread: list[KubeError] = field(default_factory=list)


def flag_paths(values: list[str]) -> list[str]:
    """The paths of repeated ``-f`` flags, each a comma-separated list (as kubectl's
    string-slice flag splits them)."""
    return [path for value in values for path in value.split(",") if path]


def manifest_files(paths: list[str], recursive: bool) -> tuple[list[str], list[KubeError]]:
    """The files the paths stand for, in kubectl's order (``-`` kept as it is), or the
    errors that stop kubectl before it reads anything (paths that do not exist, or no
    file at all)."""
    errors: list[KubeError] = []
    files: list[str] = []
    for path in paths:
        if _is_url(path):
            errors.append(KubeError(f"{path}: cfgpatch does not fetch manifests",
                                    hint="download the file and give its path to -f"))
        elif path != "-" and not os.path.lexists(path):
            errors.append(KubeError(f'the path "{path}" does not exist'))
        elif path == "-" or not os.path.isdir(path) or os.path.islink(path):
            files.append(path)  # a link to a directory too: Go's Walk does not follow it
        else:
            files.extend(_walk(path, recursive))
    if not files and not errors:
        errors.append(KubeError(
            f"error reading [{' '.join(paths)}]: recognized file extensions are "
            f"[{' '.join(EXTENSIONS)}]",
            hint="a directory given to -f is read for its .json, .yaml and .yml files"))
    return files, errors


def _is_url(path: str) -> bool:
    return path.startswith(("http://", "https://"))


def _walk(root: str, recursive: bool) -> list[str]:
    """Go's ``filepath.Walk`` from a directory: names in byte order, directories
    entered in their place (only with ``recursive``), symbolic links not followed."""
    out: list[str] = []
    for name in sorted(os.listdir(root), key=lambda n: n.encode("utf-8", "surrogateescape")):
        path = posixpath.normpath(posixpath.join(root.replace(os.sep, "/"), name))
        if os.path.isdir(path) and not os.path.islink(path):
            if recursive:
                out.extend(_walk(path, recursive))
        elif os.path.splitext(name)[1] in EXTENSIONS:
            out.append(path)
    return out


def read_manifests(files: list[str], namespace: str | None) -> Manifests:
    """The objects and reading errors of the files, in order.

    A single file holding a single object is read as ``kube patch`` reads one (the same
    messages); anything else document by document, as kubectl's visitors do.
    """
    from ..kube.io import reader, unstructured

    found = Manifests()
    for path in files:
        source = source_name(path)
        try:
            text = _read_text(path)
        except KubeError as error:  # kubectl reads the other files
            found.unread.append(error)
            continue
        if len(files) == 1 and not _several_documents(text) and text.strip():
            try:
                obj, _notes = reader.load_object(text, source)
            except KubeError as error:
                # a list of several items, a JSON stream, nothing but comments
                if error.code != MULTIPLE_DOCUMENTS \
                        and getattr(error, "problem", None) != unstructured.NO_OBJECTS:
                    raise
            else:
                _check_namespace(obj, namespace)
                found.objects.append((obj, source))
                continue
        _read_documents(found, text, source, namespace)
    return found


def read_built(text: str, directory: str, namespace: str | None) -> Manifests:
    """The objects of a kustomization's build output, named by its directory as
    ``kubectl apply -k`` names them."""
    found = Manifests()
    _read_documents(found, text, directory, namespace)
    return found


def _read_text(path: str) -> str:
    """A file's text; kubectl's error for a link to a directory (it reads it as a file)."""
    if path != "-" and os.path.isdir(path):
        raise KubeError(f"error parsing {path}: read {path}: is a directory")
    return _read_file(path, 'the path "{path}" does not exist')


def _read_documents(found: Manifests, text: str, source: str, namespace: str | None) -> None:
    from ..kube.io import reader

    try:
        for item in reader.load_objects(text, source):
            if isinstance(item, KubeError):
                found.unread.append(item)
                continue
            try:
                _check_namespace(item[0], namespace)
            except KubeError as error:
                found.elsewhere.append(error)
                continue
            found.objects.append((item[0], source))
    except KubeError as error:  # the reading of this file stops here
        found.unread.append(error)


def built_yaml(directory: str) -> str | int:
    """The YAML ``kube build`` gives for ``-k`` (kustomize's warnings written), or the
    exit code of its refusal (printed as ``kube build`` prints it)."""
    from ..kube.kustomize.build import BuildError, build, too_deep
    from .kube_build import refused

    try:
        result = build(directory)
        text = result.yaml()
    except RecursionError:
        return refused(too_deep())
    except BuildError as error:
        return refused(error)
    for warning in result.warnings:
        sys.stderr.write(warning + "\n")
    return text
