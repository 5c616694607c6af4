"""``vars``: kustomize's (deprecated) variables, ``$(NAME)`` in chosen fields.

Measured with kubectl kustomize 1.32 (tree ``vars``):

* each kustomization's ``vars`` are taken after its own transformers ran: every var's
  ``objref`` is looked up among the resources by any of their ids (current or earlier
  names), by group, version, kind and name, and also by namespace when it names one (or
  the kind has none); two matches are an error, none is left for later;
* the var names of a build are one set: bases' first, then the kustomization's own; a
  name twice is an error;
* at the very end (after hash suffixes and name references), each var (in name order)
  takes the value of its ``fieldref.fieldPath`` (default ``metadata.name``; dotted, with
  ``[N]`` for a list index) in the resource that matched it; a var nothing matched, or
  whose field is missing (or is an integer not written in decimal), is an error;
* then ``$(NAME)`` is replaced in the string fields the configuration's ``varReference``
  names (:mod:`.transformer_config`; the defaults: containers' ``command``, ``args``,
  ``env`` values and volume mount paths, Service ports, Ingress hosts and TLS secrets,
  NFS servers, every ``metadata`` labels and annotations): a string that is exactly one
  reference takes the value with its type (``8080`` stays a number), a reference inside
  a string is written as Go's ``%v``, ``$$`` is a ``$``, an unknown name is left as
  written, and values are not expanded again;
* a var whose value is a map or a list is not replaced: each reference to it is logged
  (``MakePrimitiveReplacer: bad replacement type=... val=...``) and left as written;
* a list there must hold only strings; vars never used (those too) are named on standard
  error.  kubectl writes both lines through its logger, with a time and a process id;
  ``kube build`` prints the text alone.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..go.runtime import go_format
from ..problems import Kustomize, ProblemError, cause, words
from . import fieldspecs as fs
from .gotypes import go_string
from .kustomization import Kustomization
from .resmap import ResMap, same_id
from .resources import Gvk, ResId, Resource
from .trace import Trace
from .transformers import run_at

DEFAULT_FIELD_PATH = "metadata.name"
_INDEX = re.compile(r"^(.*)\[(\d+)\]$")
_DECIMAL = re.compile(r"^[+-]?[0-9]+$")


@dataclass(frozen=True)
class Var:
    """One ``vars`` entry as written."""

    name: str
    group: str
    version: str
    kind: str
    api_version: str
    target: str
    namespace: str
    field_path: str

    @classmethod
    def of(cls, entry: Any) -> Var:
        entry = entry if isinstance(entry, dict) else {}
        ref = entry.get("objref") if isinstance(entry.get("objref"), dict) else {}
        field = entry.get("fieldref") if isinstance(entry.get("fieldref"), dict) else {}
        return cls(go_string(entry.get("name")), go_string(ref.get("group")),
                   go_string(ref.get("version")), go_string(ref.get("kind")),
                   go_string(ref.get("apiVersion")), go_string(ref.get("name")),
                   go_string(ref.get("namespace")), go_string(field.get("fieldPath")))

    def gvk(self) -> Gvk:
        """The target's type: ``apiVersion`` when given, else group and version."""
        if self.api_version:
            group, _, version = self.api_version.rpartition("/")
            return Gvk(group, version, self.kind)
        return Gvk(self.group, self.version, self.kind)

    def written(self) -> str:
        """Go's ``%v`` of the var as written (the target's own group and version)."""
        return f"{{{self.name} {Gvk(self.group, self.version, self.kind)} {{{self.field_path}}}}}"

    def looked_up(self) -> str:
        """Go's ``%v`` once its target was looked up (``apiVersion`` read into it)."""
        return f"{{{self.name} {self.gvk()} {{{self.field_path}}}}}"

    def defaulted(self) -> str:
        """Go's ``%v`` once kustomize filled it in (``apiVersion`` read, default path)."""
        return f"{{{self.name} {self.gvk()} {{{self.field_path or DEFAULT_FIELD_PATH}}}}}"

    def matches(self, rid: ResId) -> bool:
        target = ResId(self.gvk(), self.target, self.namespace)
        if target.gvk != rid.gvk or target.name != rid.name:
            return False
        return not (self.namespace or target.cluster_scoped) or same_id(target, rid)


def merge_vars(resmap: ResMap, kust: Kustomization) -> None:
    """The kustomization's ``vars``, once its transformers ran (kustomize's MergeVars)."""
    written = [Var.of(entry) for entry in kust.get("vars") or []]
    if not written:
        return
    listed = "[" + " ".join(v.written() for v in written) + "]"
    for var in written:
        matched = [r for r in resmap.resources if any(var.matches(i) for i in r.any_ids())]
        if len(matched) > 1:
            raise _merging(listed, Kustomize("var-ambiguous", name=var.looked_up(),
                                             detail=len(matched)))
        if matched:
            matched[0].ref_vars.append(var.name)
    for var in written:
        if var.name in resmap.vars:
            raise _merging(listed, Kustomize("var-repeated", name=var.name))
        resmap.vars[var.name] = var


def merge_var_sets(resmap: ResMap, other: ResMap) -> None:
    """A base's vars joining the kustomization's set (kustomize's MergeSet)."""
    for name, var in other.vars.items():
        if name in resmap.vars:
            raise ProblemError(Kustomize("var-repeated", name=name), code=KUSTOMIZE_ERROR)
        resmap.vars[name] = var


def resolve_vars(resmap: ResMap, warnings: list[str], trace: Trace | None = None) -> None:
    """Replace ``$(NAME)`` at the end of the build (kustomize's ResolveVars); traced as
    one step, ``vars``, written at ``(vars)``."""
    if not resmap.vars:
        return
    values = {name: _value(resmap, resmap.vars[name]) for name in sorted(resmap.vars)}
    counts = dict.fromkeys(values, 0)
    specs = resmap.config.var_references
    lookup = _Lookup(values, counts, warnings)

    def change(resource: Resource) -> None:
        gvk = resource.gvk
        for spec in specs:
            if spec.applies_to(gvk):
                _substitute(resource, spec, lookup)

    try:
        run_at(resmap, trace, ("(vars)", 0), "vars", 0, change)
    finally:
        unused = sorted(name for name, count in counts.items() if count == 0)
        if unused:
            warnings.append(words(Kustomize("unused-vars", detail=",".join(unused))))


def _value(resmap: ResMap, var: Var) -> Any:
    holder = next((r for r in resmap.resources if var.name in r.ref_vars), None)
    if holder is None:
        raise ProblemError(Kustomize("var-unmapped", name=var.defaulted()), code=KUSTOMIZE_ERROR)
    found, value = field_value(holder, var.field_path or DEFAULT_FIELD_PATH)
    if not found:
        raise ProblemError(Kustomize("var-field-missing", name=var.defaulted()),
                           code=KUSTOMIZE_ERROR)
    return value


def field_value(resource: Resource, path: str) -> tuple[bool, Any]:
    """kyaml's ``GetFieldValue``: (found, value) of a dotted path with ``[N]`` indexes;
    a null, or an integer written otherwise than in decimal (``0x10``), is not found."""
    steps: list[str] = []
    for part in path.split("."):
        match = _INDEX.match(part)
        steps += [s for s in match.groups() if s] if match else [part]
    node: Any = resource.value
    trail: list[str | int] = []  # as Resource.texts spells paths (list indexes as ints)
    for step in steps:
        if isinstance(node, dict) and step in node:
            node = node[step]
            trail.append(step)
        elif isinstance(node, list) and step.isdigit() and int(step) < len(node):
            node = node[int(step)]
            trail.append(int(step))
        else:
            return False, None
    if node is None:
        return False, None
    if isinstance(node, (dict, list)):
        return True, copy.deepcopy(node)  # its value now, not after the replacements
    if isinstance(node, int) and not isinstance(node, bool):
        written = resource.texts.get(tuple(trail))
        if written is not None and not _DECIMAL.match(written[0]):
            return False, None
    return True, node


class _Lookup:
    """kustomize's primitive replacer: a var's value when it is a string, number or
    boolean (counted as used); a map or a list is logged (each time it is looked up)
    and the reference is left as written, as is an unknown name."""

    def __init__(self, values: dict, counts: dict, log: list[str]) -> None:
        self.values, self.counts, self.log = values, counts, log

    def __call__(self, name: str) -> Any:
        if name not in self.values:
            return f"$({name})"
        value = self.values[name]
        if isinstance(value, (dict, list)):
            kind = "map[string]interface {}" if isinstance(value, dict) else "[]interface {}"
            self.log.append(words(Kustomize("bad-replacement-type", name=kind,
                                            detail=go_format(value))))
            return f"$({name})"
        self.counts[name] += 1
        return value


def _substitute(resource: Resource, spec: fs.FieldSpec, lookup: _Lookup) -> None:
    plain = fs.FieldSpec(spec.path, spec.kind, spec.group, spec.version, False)
    try:
        found = fs.walk_paths(resource.value, plain)
    except KubeError as err:  # a scalar where the path goes on
        raise _considering(resource, spec, getattr(err, "traversals", []), cause(err)
                           ) from None
    for parent, key, trail in found:
        current = parent.get(key)
        if isinstance(current, str):
            parent[key] = _expand(current, lookup)
        elif isinstance(current, list):
            if not all(isinstance(item, str) for item in current):
                raise _considering(resource, spec, _lists_entered(resource.value, spec, trail),
                                   Kustomize("not-a-string"))
            current[:] = [_expand(item, lookup) for item in current]
        elif isinstance(current, dict):
            for name, item in current.items():
                if isinstance(item, str):
                    current[name] = _expand(item, lookup)


def _considering(resource: Resource, spec: fs.FieldSpec, traversals: list, problem: Any
                 ) -> KubeError:
    return ProblemError(fs.considering(spec, resource.cur_id(), traversals, problem),
                        code=KUSTOMIZE_ERROR)


def _merging(listed: str, problem: Kustomize) -> KubeError:
    """kustomize's error merging the vars ``listed`` (Go's ``%v`` of them)."""
    return ProblemError(Kustomize("merging-vars", detail=listed, cause=problem),
                        code=KUSTOMIZE_ERROR)


def _lists_entered(value: Any, spec: fs.FieldSpec, trail: tuple) -> list[list[str]]:
    parts = fs.split_path(spec.path)
    node, index, out = value, 0, []
    for token in trail:
        if isinstance(node, list):
            out.append(parts[index:])
            node = node[int(token)]
        else:
            node = node.get(token) if isinstance(node, dict) else None
            index += 1
    return out


def _expand(text: str, lookup: _Lookup) -> Any:
    """kustomize's expansion of ``$(NAME)`` in ``text`` (see the module docstring)."""
    out: list[str] = []
    cursor = 0
    while True:
        start = text.find("$", cursor)
        if start < 0 or start + 1 >= len(text):
            break
        out.append(text[cursor:start])
        following = text[start + 1]
        if following == "$":
            out.append("$")
            cursor = start + 2
            continue
        end = text.find(")", start + 2) if following == "(" else -1
        if end < 0:  # not a reference: the `$` and the next character as written
            out.append(text[start:start + 2])
            cursor = start + 2
            continue
        name = text[start + 2:end]
        mapped = lookup(name)
        if text == f"$({name})":
            return mapped
        out.append(go_format(mapped))
        cursor = end + 1
    return "".join(out) + text[cursor:]




__all__ = ["DEFAULT_FIELD_PATH", "Var", "field_value", "merge_var_sets", "merge_vars",
           "resolve_vars"]
