"""The ``openapi:`` field: which schema kustomize's merge asks, over a whole build.

kustomize (kyaml) holds one schema for the whole process, and the kustomizations of a
build set it as they are loaded (measured with ``kubectl kustomize`` 1.27-1.33, trees
``openapi-*`` of tests/data/kustomize/trees):

* the top kustomization first: its ``openapi:`` wins over every base's;
* else the first base or component, in the order they are loaded, that names one (a
  later one's is ignored);
* ``openapi: {path: FILE}`` is an OpenAPI v2 document (JSON or YAML; ``format`` is
  ignored), read relative to the kustomization that names it, inside its root;
  ``openapi: {version: v1.21.2}`` is the built-in schema; another version is
  kustomize's error ``the specified OpenAPI version is not built in``; both at once is
  ``builtin version and custom schema provided, cannot use both``.

The schema is parsed lazily, on first use, and parsing *adds* definitions to one map
(a name parsed later replaces the earlier one; a ``$ref`` is looked up in the map when
followed).  Uses are: a strategic merge, and naming a type kyaml does not know by heart
(a resource, or a patch target, of a kind outside its built-in schema: kyaml asks the
schema whether it is namespaced).  kyaml v0.18 answers that question without parsing
the built-in schema: it only marks it to be parsed at the next parse.  So, for a custom
document set during the build (tree ``openapi-mixed``):

* nothing asked before it: the document alone (a ``$ref`` to a built-in type is not
  followed: lists under it are replaced);
* a type was named before it: the document, then the built-in schema (its types and
  kinds win over the document's of the same name; the document's ``$ref`` reach them);
* a strategic merge ran before it: the built-in schema, then the document (the
  document's types and kinds win, also inside built-in kinds).

A custom document that does not parse makes
``kubectl kustomize`` panic at that first use (``panic: invalid schema file: ...``,
exit code 2); ``kube build`` reports the file instead, as a clear error.
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..io.kyaml import KyamlError
from ..io.kyaml_read import read_documents
from ..io.kyaml_scalars import node_value
from ..problems import Kustomize, ProblemError, cause
from .kustomization import Kustomization
from .schema import KustomizeSchema

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

BUILTIN_VERSIONS = ("v1.21.2",)


class SchemaState:
    """kyaml's global schema during one build (see the module docstring)."""

    def __init__(self) -> None:
        self._custom: tuple[str, str] | None = None  # (text, file) not yet parsed
        self._version = ""
        self._builtin = False  # the built-in schema was parsed
        self._delayed = False  # the built-in schema is to be parsed at the next parse
        self._builtin_last = False  # it was parsed after the last custom document
        self._definitions: dict[str, Any] = {}
        self._parsed = False  # what is set has been parsed (kyaml's schemaInit)
        self._schema: KustomizeSchema | None = None
        self._sources: tuple[tuple[str, str], ...] = ()  # the documents parsed, in order

    def set_from(self, kust: Kustomization, reset: bool) -> None:
        """kyaml's SetSchema for ``kust`` (``reset``: the top kustomization)."""
        self.set_field(kust.get("openapi"), kust.loader.read, reset)

    def set_field(self, field: Any, read: Callable[[str], tuple[str, str]],
                  reset: bool) -> None:
        """kyaml's SetSchema for a kustomization's ``openapi:`` value ``field``; ``read``
        gives the text and the real path of a file named relative to that kustomization
        (raising :class:`KubeError`, kustomize's loader errors, when it cannot)."""
        field = field if isinstance(field, dict) else {}
        if (self._custom is not None or self._version) and not reset:
            return
        text = None
        if "path" in field:
            text, real = read(str(field["path"]))
        version = str(field.get("version") or "")
        if text is not None:
            if "version" in field:
                raise ProblemError(Kustomize("builtin-and-custom-schema"), code=KUSTOMIZE_ERROR)
            self._custom, self._version, self._parsed = (text, real), "custom", False
            return
        self._version = version
        if not version:
            return
        if version not in BUILTIN_VERSIONS:
            raise ProblemError(Kustomize("unknown-openapi-version"), code=KUSTOMIZE_ERROR)
        self._custom = None

    def use(self) -> None:
        """kyaml's initSchema: parse what is set, adding to what was parsed before."""
        if self._parsed:
            return
        self._parsed = True
        if self._custom is not None:
            definitions = _definitions(*self._custom)
            self._definitions = {**self._definitions, **definitions}
            self._sources = (*self._sources, self._custom)
            self._builtin_last = self._delayed
            self._builtin = self._builtin or self._delayed
        else:
            self._builtin = self._builtin_last = True
        self._delayed = False
        self._schema = None

    def key(self) -> tuple:
        """A hashable summary of the state: two states with the same key give the same
        schemas from here on (lint memoises a base's build by it)."""
        return (self._custom, self._version, self._builtin, self._parsed, self._sources,
                self._delayed, self._builtin_last)

    @property
    def custom(self) -> bool:
        """Whether a custom document has been parsed (else the schema is the built-in one)."""
        return bool(self._sources)

    def copy(self) -> SchemaState:
        """An independent copy (the parsed definitions are shared: never changed in place)."""
        other = SchemaState()
        other.__dict__.update(self.__dict__)
        return other

    def uses_type(self, api_version: Any, kind: Any) -> None:
        """A type was named: kyaml asks the schema unless the type is built in (the
        built-in schema is then only marked to be parsed, see the module docstring)."""
        if self._parsed or not (isinstance(api_version, str) and isinstance(kind, str)):
            return
        if KustomizeSchema.builtin_knows(api_version, kind):
            return
        if self._custom is not None:
            self.use()
        elif not self._builtin:
            self._delayed = True

    def schema(self) -> KustomizeSchema:
        """The schema a strategic merge asks now (this is a use)."""
        self.use()
        if self._schema is None:
            if not self._definitions:
                self._schema = KustomizeSchema.builtin() if self._builtin \
                    else KustomizeSchema.with_openapi({})
            else:
                self._schema = KustomizeSchema.with_openapi(
                    {"definitions": self._definitions}, builtin=self._builtin,
                    builtin_last=self._builtin_last)
        return self._schema


def _definitions(text: str, file: str) -> dict:
    """The ``definitions`` of an OpenAPI document (JSON or YAML; the first document)."""
    try:
        nodes = read_documents(text, file)
    except KyamlError as err:
        raise _invalid(file, cause(err)) from None
    value = node_value(nodes[0]) if nodes else None
    if not isinstance(value, dict):
        raise _invalid(file, f"expected an OpenAPI document (a mapping), got {_kind(value)}")
    definitions = value.get("definitions", {})
    if definitions is None:
        return {}
    if not isinstance(definitions, dict):
        raise _invalid(file, f"'definitions' is {_kind(definitions)}, not a mapping")
    return definitions


def _invalid(file: str, problem: Any) -> KubeError:
    """kustomize's error for an OpenAPI schema ``file`` it cannot use for ``problem``."""
    return ProblemError(Kustomize("invalid-schema-file", path=file, cause=problem),
                        code=KUSTOMIZE_ERROR)


def _kind(value: Any) -> str:
    if value is None:
        return "an empty document"
    return _KINDS.get(type(value), type(value).__name__)


#: kustomize's words for a document's type in its errors.
_KINDS: dict[type, str] = {list: "a list", str: "a string", dict: "a mapping"}
