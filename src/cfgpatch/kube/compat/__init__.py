"""Go tools' exact words for what cfgpatch's readers find.

The readers (``kube/go``, ``kube/io``) find problems as values, the records of
:mod:`cfgpatch.kube.problems` (what, where: kind, code, line, column, the offending
value, Go's type names).  This package turns such a record into the text kubectl,
go-yaml and Go's ``encoding/json`` print, byte for byte, so that the rules for reading
and the wording of refusals live apart: :func:`word`.  The facade ``cfgpatch.kube``
installs it as the wording of every problem (``problems.use_wording``), so an error's
``message`` is kubectl's text wherever it is caught.  Standard library only.

* ``goyaml``: go-yaml v2's (kubectl) and v3's (kustomize's kyaml) ``yaml: line N: ...``
  for a YAML syntax error, and its reader's words for bytes it refuses;
* ``gojson``: Go's JSON scanner's syntax errors and ``json: cannot unmarshal ...``;
* ``kubectl``: kubectl's decoder (``Object 'Kind' is missing``, ``unable to decode``)
  and file reader (``error parsing <file>: ...``);
* ``kustomize``: kustomize's words for what its build refuses (``accumulating
  resources: ...``, ``invalid Kustomization: ...``, ``MalformedYAMLError: ...``),
  imported when a kustomize problem is first worded.
"""

from __future__ import annotations

from .. import problems

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["word"]


def word(problem: Any) -> str:
    """The exact words the Go tool prints for ``problem`` (a record of
    :mod:`cfgpatch.kube.problems`; a ``str`` is words already).

    >>> word(problems.Unmarshal("array", "unstructured.detector"))
    'json: cannot unmarshal array into Go value of type unstructured.detector'
    """
    if isinstance(problem, str):
        return problem
    kind = problem.kind
    if kind == "decoding":
        from . import kubectl

        return kubectl.decoding(problem, word)
    if kind == "parsing":
        from . import kubectl

        return kubectl.parsing(problem, word)
    if kind == problems.Kustomize.kind:
        from . import kustomize

        return kustomize.words(problem, word)
    plain = _plain()
    if kind in plain:
        return plain[kind](problem)
    raise ValueError(f"no words for the problem {problem!r}")


#: The wording of each plain problem kind (made on the first problem worded, as a whole:
#: a run that reads only good input loads none of the wording modules).
_PLAIN: dict[str, Any] | None = None


def _plain() -> dict[str, Any]:
    global _PLAIN  # noqa: PLW0603 - made once, on first use
    if _PLAIN is None:
        from . import gojson, goyaml, kubectl

        _PLAIN = {
            problems.JsonSyntax.kind: gojson.syntax,
            problems.Unmarshal.kind: gojson.unmarshal,
            problems.UnknownField.kind: gojson.unknown_field,
            problems.BadBytes.kind: goyaml.reader,
            problems.YamlSyntax.kind: goyaml.message,
            problems.YamlValue.kind: goyaml.value,
            problems.MissingKind.kind: kubectl.missing_kind,
            problems.NoTypeInfo.kind: kubectl.no_type_info,
            problems.Separator.kind: kubectl.separator,
            problems.Command.kind: kubectl.command,
        }
    return _PLAIN
