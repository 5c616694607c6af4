"""The ``crds:`` field: OpenAPI definitions of custom types that add field specs.

kustomize reads every file ``crds:`` names (relative to the kustomization, inside its
root) as a map of OpenAPI definitions, ``{"<pkg>.<Kind>": {"Schema": {...}}}``, JSON
when the file starts with ``{``, else YAML.  It does **not** change merge keys
(measured: a ``x-kubernetes-patch-merge-key`` there changes nothing); it adds field
specs to the transformer configuration, for the definitions that look like a resource
(their properties hold ``kind``, ``apiVersion`` and ``metadata``), following ``$ref``
into the other definitions of the file, for the kind named by the definition's last
``.``-separated word:

* ``x-kubernetes-annotation``: ``commonAnnotations`` also go there;
* ``x-kubernetes-label-selector``: ``commonLabels`` (and ``labels`` with
  ``includeSelectors``) also go there;
* ``x-kubernetes-identity``: ``namePrefix`` (not ``nameSuffix``) also applies there;
* ``x-kubernetes-object-ref-api-version`` + ``x-kubernetes-object-ref-kind``: the
  field's ``name`` (or ``x-kubernetes-object-ref-name-key``) is a name reference to
  that kind, updated when the referred resource is renamed.

The configuration of a kustomization is its own ``crds:`` plus its bases' and
components' (kustomize merges accumulators upward), so an overlay's transformers use a
base's CRD field specs.  Errors are kustomize's: ``loading CRDs [a.json]: unable to
parse open API definition from 'a.json': ...`` (the parse detail is ours).
"""

from __future__ import annotations

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..go.json import GoJSONError
from ..go.jsondecode import decode
from ..io.kyaml import KyamlError
from ..io.kyaml_read import read_documents
from ..io.kyaml_scalars import node_value
from ..problems import Kustomize, ProblemError, cause
from .fieldspecs import FieldSpec
from .kustomization import Kustomization
from .resources import Gvk
from .transformer_config import TransformerConfig

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

X_ANNOTATION = "x-kubernetes-annotation"
X_LABEL_SELECTOR = "x-kubernetes-label-selector"
X_IDENTITY = "x-kubernetes-identity"
X_VERSION = "x-kubernetes-object-ref-api-version"
X_KIND = "x-kubernetes-object-ref-kind"
X_NAME_KEY = "x-kubernetes-object-ref-name-key"
_MAX_DEPTH = 64


def load_crds(kust: Kustomization) -> TransformerConfig:
    """The configuration of ``kust``'s ``crds:`` files."""
    return load_crd_files(kust.get("crds", []), kust.loader.read)


def load_crd_files(value: Any, read: Callable[[str], tuple[str, str]]
                   ) -> TransformerConfig:
    """The configuration of the files a ``crds:`` field ``value`` names; ``read`` gives
    the text and the real path of a file named relative to the kustomization (raising
    :class:`KubeError`, kustomize's loader errors, when it cannot)."""
    paths = [str(p) for p in value or []]
    config = TransformerConfig()
    for path in paths:
        try:
            text, real = read(path)
            definitions = _parse(text, real, path)
        except KubeError as err:
            raise ProblemError(Kustomize("loading-crds", detail=" ".join(paths),
                                         cause=cause(err)), code=err.code) from None
        config = config.merge(config_from(definitions))
    return config


def _parse(text: str, real: str, path: str) -> dict:
    if text.startswith("{"):
        try:
            value = decode(text)
        except GoJSONError as err:
            raise _unparsed(path, err.problem) from None
        except ValueError as err:
            raise _unparsed(path, str(err)) from None
    else:
        try:
            nodes = read_documents(text, real)
        except KyamlError as err:
            raise _unparsed(path, cause(err)) from None
        value = node_value(nodes[0]) if nodes else {}
    if value is None:
        value = {}
    if not isinstance(value, dict) or any(not isinstance(v, dict) for v in value.values()):
        raise _unparsed(path, 'expected a map of OpenAPI definitions ({"<name>": '
                              '{"Schema": ...}})')
    return value


def _unparsed(path: str, problem: Any) -> KubeError:
    """kustomize's error for a ``crds:`` file (``path`` as written) that does not parse
    for ``problem``."""
    return ProblemError(Kustomize("crd-definitions", path=path, cause=problem),
                        code=KUSTOMIZE_ERROR)


def _properties(definition: Any) -> dict:
    schema = definition.get("Schema") if isinstance(definition, dict) else None
    props = schema.get("properties") if isinstance(schema, dict) else None
    return props if isinstance(props, dict) else {}


def config_from(definitions: dict) -> TransformerConfig:
    """The field specs of a map of definitions (kustomize's makeConfigFromApiMap)."""
    config = TransformerConfig()
    for name in sorted(definitions):
        props = _properties(definitions[name])
        if not all(key in props for key in ("kind", "apiVersion", "metadata")):
            continue
        kind = name.split(".")[-1]
        _load(config, kind, definitions, name, [], 0)
    return config


def _load(config: TransformerConfig, kind: str, definitions: dict, name: str, path: list[str],
          depth: int) -> None:
    if depth > _MAX_DEPTH or name not in definitions:
        return
    for prop, schema in _properties(definitions[name]).items():
        if not isinstance(schema, dict):
            continue
        here = [*path, str(prop)]
        spec = FieldSpec("/".join(here), kind)
        if isinstance(schema.get(X_ANNOTATION), str):
            config.annotations += (spec,)
        if isinstance(schema.get(X_LABEL_SELECTOR), str):
            config.common_labels += (spec,)
        if isinstance(schema.get(X_IDENTITY), str):
            config.prefix += (spec,)
        version, ref_kind = schema.get(X_VERSION), schema.get(X_KIND)
        if isinstance(version, str) and isinstance(ref_kind, str):
            key = schema.get(X_NAME_KEY)
            key = key if isinstance(key, str) else "name"
            config.references.append((Gvk("", version, ref_kind),
                                      FieldSpec("/".join([*here, key]), kind)))
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref:
            _load(config, kind, definitions, ref, here, depth + 1)
