"""Built-in plugins that no kustomization field configures, only a ``generators:`` or
``transformers:`` entry (``apiVersion: builtin``): IAMPolicyGenerator and
HashTransformer, as kustomize v5.5.0 runs them (measured with kubectl 1.32, tree
``builtin-plugins-fieldless``).

- IAMPolicyGenerator (``cloud: gke`` only; another cloud is ``cloud provider X not
  supported yet``) writes a ServiceAccount *as YAML text* (kustomize formats the
  values into a template and parses it), so a value YAML cannot read there fails the
  build with go-yaml's words, and a namespace is added only when one is given.  Its
  configuration is decoded as Go's ``json.Unmarshal`` decodes it into kustomize's
  ``IAMPolicyGeneratorPlugin`` (unknown fields ignored, a wrongly typed value is Go's
  error).
- HashTransformer appends the content hash to every generated ConfigMap or Secret that
  wants one, where it runs; the build's own hash suffix is still added at the end (a
  name then carries the hash twice, as in kustomize).
"""

from __future__ import annotations

import posixpath
from typing import Any

from ...errors import KUSTOMIZE_ERROR, KUSTOMIZE_UNMODELLED, KubeError
from ..io.kyaml_write import write_value
from ..problems import Kustomize, ProblemError, cause
from . import gotypes
from .generators import absorb_all, content_hash
from .kustomization import Kustomization
from .nodes import wrong_kind_problem
from .openapi import SchemaState
from .resmap import ResMap
from .resources import Resource, annotate_origin, read_resources
from .selectors import Selector
from .styles import Quoted
from .trace import Trace

_STRING = gotypes.Scalar("string")
IAM_ARGS = gotypes.Struct("IAMPolicyGeneratorPlugin", {
    "cloud": gotypes.Scalar("types.Cloud"),
    "kubernetesService": gotypes.Struct("KubernetesService",
                                        {"name": _STRING, "namespace": _STRING}),
    "serviceAccount": gotypes.Struct("ServiceAccount",
                                     {"name": _STRING, "projectId": _STRING})})

_GKE = """
apiVersion: v1
kind: ServiceAccount
metadata:
  annotations:
    iam.gke.io/gcp-service-account: {account}@{project}.iam.gserviceaccount.com
  name: {name}
"""


def iam_policy(value: dict, kust: Kustomization, trace: Trace | None, state: SchemaState,
               origin: tuple[str, dict] | None = None) -> Any:
    """The IAMPolicyGenerator ``value`` configures (a generator plugin)."""
    try:
        args = gotypes.decode(value, IAM_ARGS, strict=False)
    except gotypes.GoDecodeError as err:
        raise ProblemError(Kustomize("unmarshaling-json", cause=err.problem),
                           code=KUSTOMIZE_ERROR) from None
    cloud = args.get("cloud") or ""
    service = args.get("kubernetesService") or {}
    account = args.get("serviceAccount") or {}

    def generate(resmap: ResMap) -> None:
        if cloud != "gke":
            raise ProblemError(Kustomize("unsupported-cloud", name=cloud), code=KUSTOMIZE_ERROR)
        text = _GKE.format(account=account.get("name") or "",
                           project=account.get("projectId") or "",
                           name=service.get("name") or "")
        if service.get("namespace"):
            text += f"\n  namespace: {service['namespace']}"
        try:
            made: list[Resource] = read_resources(text, kust.file)
        except KubeError as err:  # kustomize parses the text alone: go-yaml's words only
            found = cause(err)
            if getattr(found, "code", None) == "malformed-yaml":
                found = found.cause
            raise ProblemError(found, code=KUSTOMIZE_ERROR) from None
        if origin is not None:
            for resource in made:
                annotate_origin(resource, {"configuredIn": origin[0], "configuredBy": origin[1]})
        absorb_all(resmap, made)
    return generate


def hash_transformer(value: dict, kust: Kustomization, trace: Trace | None,
                     state: SchemaState) -> Any:
    """A HashTransformer (its configuration holds nothing it reads)."""
    def transform(resmap: ResMap) -> None:
        for resource in resmap.resources:
            if resource.generated and resource.generated.needs_hash:
                resource.store_previous_id()
                resource.set_name(f"{resource.name}-{content_hash(resource.value)}")
    return transform


# ----------------------------------------------------------------- ValueAddTransformer

_TARGET = gotypes.Struct("Target", {"selector": gotypes.Pointer(gotypes.SELECTOR),
                                    "fieldPath": _STRING, "filePathPosition": gotypes.INT64})
VALUE_ADD_ARGS = gotypes.Struct("ValueAddTransformerPlugin", {
    "value": _STRING, "targets": gotypes.Slice(_TARGET), "targetFilePath": _STRING})
_TARGETS_FILE = gotypes.Struct("", {"targets": gotypes.Slice(_TARGET)})


def value_add(value: dict, kust: Kustomization, trace: Trace | None,
              state: SchemaState) -> Any:
    """A ValueAddTransformer: ``value`` (trimmed; empty: the kustomization folder's
    name) into each target's ``fieldPath`` (``metadata/namespace``: as the namespace
    transformer sets it) of the selected resources, created when missing, or inserted
    into the path held there at ``filePathPosition``."""
    args = _decoded(value, VALUE_ADD_ARGS)
    text = (args.get("value") or "").strip(" \t\n\r\v\f") or posixpath.basename(
        kust.loader.root.rstrip("/"))
    targets = list(args.get("targets") or [])
    if args.get("targetFilePath"):
        from ..io.kyaml_read import read_documents
        from .kustomization import v2_value

        content, _real = kust.loader.read(args["targetFilePath"])
        documents = read_documents(content) if content.strip() else []
        loaded = _decoded(v2_value(documents[0]) if documents else {}, _TARGETS_FILE)
        targets += list(loaded.get("targets") or [])
    if not targets:
        raise ProblemError(Kustomize("no-targets"), code=KUSTOMIZE_ERROR)
    for target in targets:
        if not target.get("fieldPath"):
            raise ProblemError(Kustomize("empty-field-path"), code=KUSTOMIZE_ERROR)
        if (target.get("filePathPosition") or 0) < 0:
            raise ProblemError(Kustomize("negative-file-path-position",
                                         detail=target["filePathPosition"]),
                               code=KUSTOMIZE_ERROR)

    def transform(resmap: ResMap) -> None:
        for target in targets:
            chosen = resmap.select(Selector.from_dict(target["selector"])) \
                if target.get("selector") is not None else list(resmap.resources)
            for resource in chosen:
                if target["fieldPath"] == "metadata/namespace":
                    from . import transformers

                    transformers.set_namespace(ResMap([resource]), trace, kust, text, ())
                else:
                    _add(resource, target["fieldPath"], text,
                         target.get("filePathPosition") or 0)
    return transform


def _decoded(value: Any, into: gotypes.Struct) -> dict:
    try:
        return gotypes.decode(value, into, strict=False) or {}
    except gotypes.GoDecodeError as err:
        raise ProblemError(Kustomize("unmarshaling-json", cause=err.problem),
                           code=KUSTOMIZE_ERROR) from None


def _fields(path: str) -> list[str]:
    """``a/b\\/c`` is ``a``, ``b/c`` (kustomize's escaped slash)."""
    fields: list[str] = []
    for part in path.split("/"):
        if fields and fields[-1].endswith("\\"):
            fields[-1] = fields[-1][:-1] + "/" + part
        else:
            fields.append(part)
    return fields


def _add(resource: Resource, path: str, text: str, position: int) -> None:
    holder: Any = resource.value
    fields = _fields(path)
    for at, name in enumerate(fields[:-1]):
        if isinstance(holder, list):
            holder = _element(holder, name, path)
            continue
        child = holder.get(name)
        if child is None:
            child = holder[name] = [] if _is_list_step(fields[at + 1]) else {}
        if not isinstance(child, (dict, list)):
            raise ProblemError(wrong_kind_problem("MappingNode", _kind(child), _text(child)),
                               code=KUSTOMIZE_ERROR)
        holder = child
    last = fields[-1]
    if isinstance(holder, list):
        raise KubeError(f"{path}: a list element as ValueAddTransformer's field is not "
                        f"modelled by cfgpatch kube build", code=KUSTOMIZE_UNMODELLED)
    current = holder.get(last)
    if isinstance(current, (dict, list)):
        raise ProblemError(wrong_kind_problem("ScalarNode", _kind(current),
                                              write_value(current).rstrip()),
                           code=KUSTOMIZE_ERROR)
    new = text
    if position > 0:
        new = insert_path_part(_text(current), position - 1, text)
    if isinstance(current, Quoted):
        holder[last] = Quoted(new)
        return
    holder[last] = _plain_scalar(new)
    if not isinstance(holder[last], str):
        resource.retyped.append(path)


def _is_list_step(name: str) -> bool:
    return name.isdigit() or (name.startswith("[") and "=" in name and name.endswith("]"))


def _element(items: list, name: str, path: str) -> Any:
    """The element ``name`` picks (kyaml's path: an index, or ``[key=value]``)."""
    found = None
    if name.isdigit():
        found = items[int(name)] if int(name) < len(items) else None
    elif _is_list_step(name):
        key, _, wanted = name[1:-1].partition("=")
        found = next((item for item in items if isinstance(item, dict)
                      and _text(item.get(key)) == wanted), None)
    if not isinstance(found, dict):
        raise KubeError(f"{path}: a ValueAddTransformer field through a list element that "
                        f"is not there is not modelled by cfgpatch kube build",
                        code=KUSTOMIZE_UNMODELLED)
    return found


def _kind(value: Any) -> str:
    return "MappingNode" if isinstance(value, dict) else \
        "SequenceNode" if isinstance(value, list) else "ScalarNode"


def _text(value: Any) -> str:
    from .nodes import text

    return "" if value is None else text(value)


def _plain_scalar(text: str) -> Any:
    """A scalar written plain with no tag: read back by type (``123`` is a number)."""
    from ..io.kyaml import BOOL, FLOAT, INT, NULL
    from ..io.kyaml_scalars import resolve

    tag, resolved = resolve(text) if text else (NULL, None)
    return resolved if tag in (INT, FLOAT, BOOL, NULL) else text


def insert_path_part(path: str, pos: int, part: str) -> str:
    """kyaml's ``filesys.InsertPathPart``: ``part`` as the ``pos``-th folder of ``path``
    (a leading ``/`` kept and not counted).

    >>> [insert_path_part(p, 1, "X") for p in ("", "/", "a", "/a/b", "a/b/c")]
    ['X', '/X', 'a/X', '/a/X/b', 'a/X/b/c']
    """
    if not part:
        return path
    parts = _path_split(path)
    pos = max(0, min(pos, len(parts)))
    if parts and parts[0] == "" and pos < len(parts):
        pos += 1
    parts.insert(pos, part)
    if parts and parts[0] == "":
        return "/" + posixpath.normpath("/".join(parts[1:])).lstrip("/") \
            if len(parts) > 1 else "/"
    return posixpath.normpath("/".join(parts))


def _path_split(path: str) -> list[str]:
    if path == "":
        return []
    head, tail = posixpath.split(path)
    if head == "/":
        return [""] if tail == "" else ["", tail]
    head = head.rstrip("/")
    if head == "":
        return [tail]
    return [*_path_split(head), tail]
