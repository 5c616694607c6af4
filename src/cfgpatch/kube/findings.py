"""Findings: warnings and explanations about a Kubernetes patch, each with a stable code.

A :class:`Finding` names a code from :data:`CATALOGUE`, the path it concerns (a JSON
pointer into the original object, or into the patch for patch-only places) and a
short explanation.  :func:`detect` runs every detector that applies to the patch type
over a :class:`Situation` (original object, patch, result or error, list shapes) and
returns the findings in a stable order.  Detectors only read; they never change the
outcome of the patch, which comes from the engine alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..jsonvalue import canonical_unchecked, equal
from ..pointer import format_pointer
from .changes import ATOMIC, KEYED, SET, ListRule, Shapes, describe_element

ERROR = "error"
WARNING = "warning"
INFO = "info"

#: code -> (severity, what it means, in our words).
CATALOGUE: dict[str, tuple[str, str]] = {
    "merge-list-replaced": (WARNING, "A JSON merge patch replaces a list wholesale; elements "
                            "the patch does not restate are gone."),
    "atomic-list-replaced": (WARNING, "This list has no merge strategy for its kind, so even a "
                             "strategic patch replaces it wholesale."),
    "null-deletes": (INFO, "A null in the patch deletes the key; it does not mean "
                     "'leave unchanged' (omit the key for that)."),
    "custom-resource": (ERROR, "kubectl has no compiled Go type (and so no merge keys) for this "
                        "kind, so it refuses a strategic merge patch."),
    "fallback-view": (INFO, "What tools that fall back to a JSON merge patch on this kind "
                      "(kustomize, client-side kubectl apply, Helm's client-side upgrade) "
                      "would produce instead."),
    "server-side-apply-view": (INFO, "How server-side apply would merge the lists, using the "
                               "CRD's x-kubernetes-list-type and list-map-keys."),
    "finalizers-empty-noop": (WARNING, "Under strategic merge this list is a union: an empty "
                              "list adds nothing and removes nothing."),
    "namespace-finalize": (WARNING, "A Namespace's spec.finalizers only changes on a server "
                           "through the /finalize subresource; a patch leaves it as it is."),
    "shared-merge-key": (WARNING, "Several elements share this merge key value; the patch "
                         "element was merged into the first of them only."),
    "merge-key-type": (WARNING, "The merge key has a different JSON type than the existing "
                       "element's (\"9153\" is not 9153), so nothing matched and a new "
                       "element was added."),
    "retain-keys-leftover": (WARNING, "This field keeps only one of its alternatives when the "
                             "patch carries $retainKeys; without it the old keys stay next to "
                             "the new ones, which a server rejects."),
    "directive-as-data": (WARNING, "A strategic-merge directive sent where it is not "
                          "interpreted is stored as ordinary data."),
    "delete-matched-nothing": (INFO, "A delete directive matched nothing; kubectl silently does "
                               "nothing."),
    "add-replaces-map": (WARNING, "JSON Patch add on an existing object replaces the whole "
                         "object, dropping every key not in the new value."),
    "index-into-keyed-list": (WARNING, "This JSON Patch addresses a keyed list by position; if "
                              "the list changes order the patch hits another element. A test "
                              "on the key guards it."),
    "unescaped-slash": (WARNING, "A '/' inside a key must be written ~1 in a JSON Pointer; "
                        "unescaped, the pointer splits the key in two."),
    "unknown-field": (WARNING, "The schema of this kind has no such field; kubectl patch "
                      "--local accepts it but a server may reject or drop it."),
    "yaml-type-change": (WARNING, "An unquoted YAML scalar was read as another type (YAML 1.1 "
                         "rules, as kubectl reads it)."),
    "kubectl-json-departure": (INFO, "kubectl's JSON Patch accepts this although RFC 6902 "
                               "would not, or treats it differently."),
    "kubectl-merge-departure": (INFO, "kubectl's merge patch departs from RFC 7386 here."),
    "kubectl-crash": (ERROR, "kubectl itself crashes on this patch (exit code 2); there is "
                      "no result to show."),
    "duplicates-order": (INFO, "The list holds duplicates; kubectl's de-duplication moves "
                         "elements in ways that depend on its internal slice capacity."),
    "kustomize-differs": (INFO, "kustomize merges this differently from kubectl patch."),
    "kubectl-nondeterministic": (WARNING, "kubectl's result here depends on the order in which "
                                 "Go walks a map, which changes from run to run."),
}

DIRECTIVE_PREFIXES = ("$patch", "$retainKeys", "$setElementOrder/", "$deleteFromPrimitiveList/")
_ABSENT = object()


@dataclass(frozen=True)
class Finding:
    """One warning or explanation: stable ``code``, ``path``, ``message``, optional ``detail``."""

    code: str
    path: str
    message: str
    detail: dict = field(default_factory=dict)

    @property
    def severity(self) -> str:
        return CATALOGUE[self.code][0]

    def to_dict(self) -> dict:
        out: dict = {"code": self.code, "severity": self.severity, "path": self.path,
                     "message": self.message}
        if self.detail:
            out["detail"] = self.detail
        return out

    def describe(self) -> str:
        where = self.path or "(root)"
        return f"{self.severity} [{self.code}] {where}: {self.message}"


@dataclass
class Situation:
    """Everything a detector may read about one patch."""

    obj: Any
    patch: Any
    patch_type: str
    result: Any = None
    shapes: Shapes = field(default_factory=Shapes)
    kind: str = ""
    error: Exception | None = None
    #: For ``json``: the document as it is before operation ``i`` (None if unknown).
    before_op: Callable[[int], Any] | None = None
    #: Detectors' shared work (the walk of the patch, key indexes), filled on demand.
    memo: dict = field(default_factory=dict, repr=False)


def make(code: str, tokens: list[str] | str, message: str, **detail: Any) -> Finding:
    """Build a finding; ``tokens`` is a token list or an already formatted pointer."""
    if code not in CATALOGUE:
        raise KeyError(f"unknown finding code {code!r}")
    path = tokens if isinstance(tokens, str) else format_pointer(tokens)
    return Finding(code, path, message, {k: v for k, v in detail.items() if v is not None})


def detect(situation: Situation) -> list[Finding]:
    """Every finding for the situation, de-duplicated, in detector order."""
    detectors = _DETECTORS.get(situation.patch_type, ())
    seen: set[tuple[str, str, str]] = set()
    out: list[Finding] = []
    for detector in (*detectors, _namespace_finalize):
        for finding in detector(situation):
            ident = (finding.code, finding.path, finding.message)
            if ident not in seen:
                seen.add(ident)
                out.append(finding)
    return out


# ---------------------------------------------------------------- strategic walk


@dataclass(frozen=True)
class _Visit:
    tokens: list[str]
    shape: tuple[str, ...]
    key: str
    before: Any
    value: Any
    parent_before: Any


def _walk_strategic(before: Any, patch: Any, shapes: Shapes, tokens: list[str] | None = None,
                    shape: tuple[str, ...] = (), memo: dict | None = None) -> Iterator[_Visit]:
    """Visit every key of a strategic patch, paired with the original value it lands on."""
    tokens = tokens or []
    memo = {} if memo is None else memo
    if not isinstance(patch, dict):
        return
    base = before if isinstance(before, dict) else {}
    for key, value in patch.items():
        if key.startswith("$"):
            continue
        old = base.get(key, _ABSENT)
        visit = _Visit([*tokens, key], (*shape, key), key, old, value, before)
        yield visit
        if isinstance(value, dict):
            yield from _walk_strategic(old, value, shapes, visit.tokens, visit.shape, memo)
        elif isinstance(value, list):
            yield from _walk_keyed(old, value, shapes, visit, memo)


def _walk_keyed(old: Any, items: list, shapes: Shapes, visit: _Visit,
                memo: dict) -> Iterator[_Visit]:
    rule = shapes.list_rule(visit.shape)
    if rule is None or rule.kind != KEYED:
        return
    olds = old if isinstance(old, list) else []
    for item in items:
        if not isinstance(item, dict) or rule.keys[0] not in item:
            continue
        index = _first_match(olds, rule.keys[0], item[rule.keys[0]], memo)
        target = olds[index] if index is not None else _ABSENT
        where = [*visit.tokens, str(index) if index is not None else "-"]
        yield from _walk_strategic(target, item, shapes, where, (*visit.shape, "[]"), memo)


def _visits(s: Situation) -> list[_Visit]:
    """The strategic walk of the patch, done once per situation."""
    if "visits" not in s.memo:
        s.memo["visits"] = list(_walk_strategic(s.obj, s.patch, s.shapes, memo=s.memo))
    return s.memo["visits"]


def _key_index(items: list, key: str, memo: dict) -> dict[str, list[int]]:
    """Key value (canonical text) -> indices of the elements carrying it."""
    ident = ("index", id(items), key)
    if ident not in memo:
        index: dict[str, list[int]] = {}
        for i, item in enumerate(items):
            if isinstance(item, dict) and key in item:
                index.setdefault(canonical_unchecked(item[key]), []).append(i)
        memo[ident] = (items, index)  # keep ``items`` alive so its id stays unique
    return memo[ident][1]


def _missing(before: list, after: list) -> list:
    """Elements of ``before`` with no equal element in ``after`` (by canonical text)."""
    present = {canonical_unchecked(item) for item in after}
    return [item for item in before if canonical_unchecked(item) not in present]


def _first_match(items: list, key: str, value: Any, memo: dict | None = None) -> int | None:
    found = _key_index(items, key, {} if memo is None else memo).get(canonical_unchecked(value))
    return found[0] if found else None


def _strategic_lists(s: Situation) -> Iterator[tuple[_Visit, ListRule | None]]:
    for visit in _visits(s):
        if isinstance(visit.value, list):
            yield visit, s.shapes.list_rule(visit.shape)


def _atomic_replaced(s: Situation) -> Iterator[Finding]:
    for visit, rule in _strategic_lists(s):
        if rule is not None and rule.kind != ATOMIC or not isinstance(visit.before, list):
            continue
        lost = _missing(visit.before, visit.value)
        if lost:
            names = ", ".join(describe_element(item) for item in lost)
            yield make("atomic-list-replaced", visit.tokens,
                       f"{visit.key} is atomic: the patch list replaces it and drops {names}",
                       lost=lost)


def _finalizers_empty(s: Situation) -> Iterator[Finding]:
    for visit, rule in _strategic_lists(s):
        if rule is not None and rule.kind == SET and visit.value == [] and visit.before:
            yield make("finalizers-empty-noop", visit.tokens,
                       f"{visit.key}: [] is merged as a union and changes nothing; use null, "
                       f"$deleteFromPrimitiveList/{visit.key} or --type merge to remove entries")


def _keyed_items(s: Situation) -> Iterator[tuple[_Visit, str, dict, list]]:
    for visit, rule in _strategic_lists(s):
        if rule is None or rule.kind != KEYED or not isinstance(visit.before, list):
            continue
        for item in visit.value:
            if isinstance(item, dict) and rule.keys[0] in item:
                yield visit, rule.keys[0], item, visit.before


def _shared_key(s: Situation) -> Iterator[Finding]:
    for visit, key, item, olds in _keyed_items(s):
        matches = _key_index(olds, key, s.memo).get(canonical_unchecked(item[key]), [])
        if len(matches) > 1 and item.get("$patch") != "delete":
            first = olds[matches[0]]
            clash = [k for k, v in item.items() if k in first and not k.startswith("$")
                     and not equal(first[k], v)]
            text = (f"{len(matches)} elements have {key} {canonical_unchecked(item[key])}; "
                    f"the patch went into the first ({describe_element(first)})")
            if clash:
                text += f" and overwrote its {', '.join(clash)}"
            yield make("shared-merge-key", [*visit.tokens, str(matches[0])], text,
                       matches=matches)
        elif len(matches) > 1:
            yield make("shared-merge-key", visit.tokens,
                       f"$patch: delete on {key} {canonical_unchecked(item[key])} removes all "
                       f"{len(matches)} elements that share it", matches=matches)


def _key_type(s: Situation) -> Iterator[Finding]:
    for visit, key, item, olds in _keyed_items(s):
        value = item[key]
        if canonical_unchecked(value) in _key_index(olds, key, s.memo):
            continue
        for i, old in enumerate(olds):
            if isinstance(old, dict) and key in old and _loosely_equal(old[key], value):
                yield make("merge-key-type", [*visit.tokens, str(i)],
                           f"{key} {canonical_unchecked(value)} does not match the existing "
                           f"{canonical_unchecked(old[key])}; a new element was added instead")
                break


def _loosely_equal(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return False
    return str(a).strip() == str(b).strip() and type(a) is not type(b)


def _delete_nothing(s: Situation) -> Iterator[Finding]:
    for visit, rule in _strategic_lists(s):
        if rule is None or rule.kind != KEYED:
            continue
        olds = visit.before if isinstance(visit.before, list) else []
        for item in visit.value:
            if (isinstance(item, dict) and item.get("$patch") == "delete"
                    and rule.keys[0] in item
                    and _first_match(olds, rule.keys[0], item[rule.keys[0]], s.memo) is None):
                yield make("delete-matched-nothing", visit.tokens,
                           f"$patch: delete for {rule.keys[0]} "
                           f"{canonical_unchecked(item[rule.keys[0]])} matched no element")
    yield from _delete_primitive_nothing(s)


def _delete_primitive_nothing(s: Situation) -> Iterator[Finding]:
    for tokens, before, patch in _patch_maps(s.obj, s.patch):
        for key, values in patch.items():
            if not key.startswith("$deleteFromPrimitiveList/") or not isinstance(values, list):
                continue
            name = key.split("/", 1)[1]
            have = before.get(name) if isinstance(before, dict) else None
            have = have if isinstance(have, list) else []
            for value in values:
                if not any(equal(value, h) for h in have):
                    yield make("delete-matched-nothing", [*tokens, name],
                               f"{canonical_unchecked(value)} is not in {name}")


def _delete_and_add(s: Situation) -> Iterator[Finding]:
    if not _has_key_prefix(s.patch, "$deleteFromPrimitiveList/"):
        return  # only a field beside its $deleteFromPrimitiveList/ twin depends on key order
    root = getattr(s.shapes, "root", None)
    if root is not None and isinstance(s.obj, dict) and isinstance(s.patch, dict):
        from .strategic import order_alternatives  # both orders, computed
        for pointer, message in order_alternatives(s.obj, s.patch, root):
            yield make("kubectl-nondeterministic", pointer, message)
        return
    for tokens, _before, patch in _patch_maps(s.obj, s.patch):
        for key, values in patch.items():
            if not key.startswith("$deleteFromPrimitiveList/") or not isinstance(values, list):
                continue
            name = key.split("/", 1)[1]
            added = patch.get(name)
            both = [v for v in values if isinstance(added, list)
                    and any(equal(v, a) for a in added)]
            if both:
                yield make("kubectl-nondeterministic", [*tokens, name],
                           f"{', '.join(canonical_unchecked(v) for v in both)} is both deleted "
                           f"and added; kubectl keeps or drops it depending on which of the two "
                           f"keys it happens to handle first (the result shown keeps it)")


def _has_key_prefix(value: Any, prefix: str) -> bool:
    """True if any object inside ``value`` has a key starting with ``prefix``."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if any(isinstance(key, str) and key.startswith(prefix) for key in node):
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _patch_maps(before: Any, patch: Any, tokens: list[str] | None = None
                ) -> Iterator[tuple[list[str], Any, dict]]:
    """Every map of the patch reachable through maps, with the original beside it."""
    tokens = tokens or []
    if not isinstance(patch, dict):
        return
    yield tokens, before, patch
    base = before if isinstance(before, dict) else {}
    for key, value in patch.items():
        if isinstance(value, dict) and not key.startswith("$"):
            yield from _patch_maps(base.get(key), value, [*tokens, key])


def _retain_keys(s: Situation) -> Iterator[Finding]:
    if s.result is None:
        return
    for visit in _visits(s):
        if (isinstance(visit.value, dict) and isinstance(visit.before, dict)
                and "$retainKeys" not in visit.value
                and visit.value.get("$patch") not in ("replace", "delete")
                and s.shapes.retains_keys(visit.shape)):
            yield from _leftover(visit.tokens, visit.before, visit.value, visit.key)
        if not isinstance(visit.value, list):
            continue
        rule = s.shapes.list_rule(visit.shape)
        if (rule and rule.kind == KEYED and isinstance(visit.before, list)
                and s.shapes.retains_keys((*visit.shape, "[]"))):
            for item in visit.value:
                if not isinstance(item, dict) or "$retainKeys" in item or rule.keys[0] not in item:
                    continue
                i = _first_match(visit.before, rule.keys[0], item[rule.keys[0]], s.memo)
                if i is not None and isinstance(visit.before[i], dict):
                    name = describe_element(item)
                    yield from _leftover([*visit.tokens, str(i)], visit.before[i], item, name,
                                         skip=rule.keys)


def _leftover(tokens: list[str], before: dict, patch: dict, name: str,
              skip: tuple[str, ...] = ()) -> Iterator[Finding]:
    added = [k for k in patch if not k.startswith("$") and k not in before
             and patch[k] is not None]
    if "type" in patch and "type" in before and not equal(patch["type"], before["type"]):
        added.append(f"type {canonical_unchecked(patch['type'])}")
    if not added:
        return
    stale = [k for k in before if k not in patch and k not in skip]
    if stale:
        yield make("retain-keys-leftover", tokens,
                   f"{name} now has {', '.join(added)} and still {', '.join(stale)}; add "
                   f"\"$retainKeys\": {canonical_unchecked(sorted([*skip, *patch]))} or null "
                   f"the old keys", stale=stale)


def _duplicates(s: Situation) -> Iterator[Finding]:
    for visit, rule in _strategic_lists(s):
        if rule is None or rule.kind != SET or not isinstance(visit.before, list):
            continue
        texts = [canonical_unchecked(v) for v in visit.before]
        if len(set(texts)) != len(texts):
            yield make("duplicates-order", visit.tokens,
                       f"{visit.key} already holds duplicates; kubectl removes them and may "
                       f"reorder the list")


def _directives_in_atomic(s: Situation) -> Iterator[Finding]:
    for visit, rule in _strategic_lists(s):
        if rule is not None and rule.kind != ATOMIC:
            continue
        for tokens, key in _directive_keys(visit.value, visit.tokens):
            yield make("directive-as-data", tokens,
                       f"{key} inside the atomic list {visit.key} is not interpreted; it is "
                       f"stored as a literal element")


def _directive_keys(value: Any, tokens: list[str]) -> Iterator[tuple[list[str], str]]:
    if isinstance(value, dict):
        for key, child in value.items():
            if key.startswith(DIRECTIVE_PREFIXES):
                yield [*tokens, key], key
            yield from _directive_keys(child, [*tokens, key])
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _directive_keys(child, [*tokens, str(i)])


def _nulls(s: Situation) -> Iterator[Finding]:
    walk = _visits(s) if s.patch_type == "strategic" else _walk_merge(s.obj, s.patch)
    for visit in walk:
        if visit.value is None:
            if visit.before is _ABSENT:
                text = f"null for {visit.key}, which is not there: nothing to delete"
            else:
                text = f"null deletes {visit.key} (was {_brief(visit.before)})"
            yield make("null-deletes", visit.tokens, text)


def _brief(value: Any) -> str:
    text = canonical_unchecked(value)
    return text if len(text) <= 50 else text[:47] + "..."


def _unknown_fields(s: Situation) -> Iterator[Finding]:
    walk = _visits(s) if s.patch_type == "strategic" else _walk_merge(s.obj, s.patch)
    for visit in walk:
        if s.shapes.field_known(visit.shape) is False:
            yield make("unknown-field", visit.tokens,
                       f"{visit.key} is not a field of {s.kind or 'this kind'} here")


# ---------------------------------------------------------------- merge patch


def _walk_merge(before: Any, patch: Any, tokens: list[str] | None = None,
                shape: tuple[str, ...] = ()) -> Iterator[_Visit]:
    tokens = tokens or []
    if not isinstance(patch, dict):
        return
    base = before if isinstance(before, dict) else {}
    for key, value in patch.items():
        old = base.get(key, _ABSENT)
        visit = _Visit([*tokens, key], (*shape, key), key, old, value, before)
        yield visit
        if isinstance(value, dict):
            yield from _walk_merge(old, value, visit.tokens, visit.shape)


def _merge_replaced(s: Situation) -> Iterator[Finding]:
    for visit in _walk_merge(s.obj, s.patch):
        if not isinstance(visit.value, list) or not isinstance(visit.before, list):
            continue
        if equal(visit.value, visit.before):
            continue
        rule = s.shapes.list_rule(visit.shape)
        lost = _missing(visit.before, visit.value)
        if not lost:
            continue
        gone = _gone_by_key(visit.before, visit.value, rule)
        text = f"{visit.key} is replaced wholesale"
        if gone:
            text += "; lost " + ", ".join(describe_element(item) for item in gone)
        changed = [item for item in lost if not any(item is g for g in gone)]
        if changed:
            text += ("; " if gone else "; ") + "restated without some of their fields: " + \
                ", ".join(describe_element(item) for item in changed)
        if rule is not None and rule.kind in (KEYED, SET):
            text += "; --type strategic would merge it"
        yield make("merge-list-replaced", visit.tokens, text, lost=lost)


def _gone_by_key(before: list, after: list, rule: ListRule | None) -> list:
    if rule is None or rule.kind != KEYED:
        return _missing(before, after)
    key = rule.keys[0]
    kept = [item.get(key) for item in after if isinstance(item, dict)]
    return [item for item in before
            if not (isinstance(item, dict) and any(equal(item.get(key), k) for k in kept))]


def _directives_as_data(s: Situation) -> Iterator[Finding]:
    for tokens, key in _directive_keys(s.patch, []):
        yield make("directive-as-data", tokens,
                   f"{key} is a strategic-merge directive; --type {s.patch_type} stores it "
                   f"as an ordinary key")


def _merge_departures(s: Situation) -> Iterator[Finding]:
    for tokens, inside in _nulls_inside_lists(s.patch, []):
        yield make("kubectl-merge-departure", tokens,
                   f"kubectl drops the null members inside this list ({inside}); RFC 7386 "
                   f"would store the list exactly as written")


def _nulls_inside_lists(value: Any, tokens: list[str], in_list: bool = False
                        ) -> Iterator[tuple[list[str], str]]:
    if isinstance(value, dict):
        for key, child in value.items():
            if in_list and child is None:
                yield [*tokens, key], key
            else:
                yield from _nulls_inside_lists(child, [*tokens, key], in_list)
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _nulls_inside_lists(child, [*tokens, str(i)], True)


# ---------------------------------------------------------------- namespace


def _namespace_finalize(s: Situation) -> Iterator[Finding]:
    if not (isinstance(s.obj, dict) and s.obj.get("kind") == "Namespace"):
        return
    touched = False
    if s.patch_type == "json" and isinstance(s.patch, list):
        touched = any(isinstance(op, dict) and str(op.get("path", "")).startswith(
            "/spec/finalizers") for op in s.patch)
    elif isinstance(s.patch, dict) and isinstance(s.patch.get("spec"), dict):
        touched = any(k.endswith("finalizers") for k in s.patch["spec"])
    if touched:
        yield make("namespace-finalize", ["spec", "finalizers"],
                   "the result shows the local edit, but a server changes spec.finalizers "
                   "only through PUT .../namespaces/<name>/finalize; metadata.finalizers is a "
                   "different list")


# ---------------------------------------------------------------- JSON Patch


def kubectl_tokens(path: str) -> list[str]:
    """Split a pointer as kubectl's JSON Patch does: ``~1`` then ``~0``, others literal."""
    return [t.replace("~1", "/").replace("~0", "~") for t in path.split("/")[1:]]


def _ops(s: Situation) -> Iterator[tuple[int, dict]]:
    if isinstance(s.patch, list):
        for i, op in enumerate(s.patch):
            if isinstance(op, dict):
                yield i, op


def _doc_before(s: Situation, index: int) -> Any:
    if s.before_op is None:
        return s.obj if index == 0 else _ABSENT
    return s.before_op(index)


def _json_map_replace(s: Situation) -> Iterator[Finding]:
    for i, op in _ops(s):
        path = op.get("path")
        if op.get("op") != "add" or not isinstance(path, str) or not path.startswith("/"):
            continue
        doc = _doc_before(s, i)
        target = _lookup(doc, kubectl_tokens(path))
        if isinstance(target, dict) and target:
            value = op.get("value")
            dropped = [k for k in target if not isinstance(value, dict) or k not in value]
            if dropped:
                yield make("add-replaces-map", path,
                           f"op {i} add replaces the existing object and drops "
                           f"{', '.join(dropped)}; add each key as "
                           f"{path}/<key> to keep the others", dropped=dropped)


def _lookup(doc: Any, tokens: list[str]) -> Any:
    for token in tokens:
        if isinstance(doc, dict) and token in doc:
            doc = doc[token]
        elif isinstance(doc, list) and token.isdigit() and int(token) < len(doc):
            doc = doc[int(token)]
        else:
            return _ABSENT
    return doc


def _json_index_into_keyed(s: Situation) -> Iterator[Finding]:
    guarded: set[str] = set()
    for i, op in _ops(s):
        path = op.get("path")
        if not isinstance(path, str) or not path.startswith("/"):
            continue
        if op.get("op") == "test":
            guarded.add(path)
            continue
        doc = _doc_before(s, i)
        yield from _index_guard(s, i, path, doc, guarded)


def _index_guard(s: Situation, i: int, path: str, doc: Any, guarded: set[str]
                 ) -> Iterator[Finding]:
    tokens = kubectl_tokens(path)
    shape: tuple[str, ...] = ()
    node = doc
    for depth, token in enumerate(tokens):
        if isinstance(node, list):
            rule = s.shapes.list_rule(shape)
            if rule and rule.kind == KEYED and token.isdigit() and int(token) < len(node):
                element = node[int(token)]
                key = rule.keys[0]
                guard = format_pointer([*tokens[: depth + 1], key])
                if isinstance(element, dict) and key in element and guard not in guarded:
                    test = {"op": "test", "path": guard, "value": element[key]}
                    yield make("index-into-keyed-list", path,
                               f"op {i} picks {shape[-1] if shape else 'the list'}[{token}] by "
                               f"position (today {key}={canonical_unchecked(element[key])}); "
                               f"guard it with {canonical_unchecked(test)}", guard=test)
                    return
            shape = (*shape, "[]")
            node = node[int(token)] if token.isdigit() and int(token) < len(node) else _ABSENT
        elif isinstance(node, dict):
            shape = (*shape, token)
            node = node.get(token, _ABSENT)
        else:
            return


def _json_unescaped(s: Situation) -> Iterator[Finding]:
    for i, op in _ops(s):
        for name in ("path", "from"):
            path = op.get(name)
            if isinstance(path, str) and path.startswith("/"):
                fixed = _corrected_pointer(_doc_before(s, i), kubectl_tokens(path),
                                           op.get("op") == "add" and name == "path")
                if fixed and fixed != path:
                    yield make("unescaped-slash", path,
                               f"op {i} {name} splits a key at '/'; did you mean {fixed} ?",
                               corrected=fixed)


_STRING_MAPS = ("annotations", "labels", "matchLabels", "nodeSelector", "selector", "data",
                "stringData")


def _corrected_pointer(doc: Any, tokens: list[str], adding: bool) -> str | None:
    node = doc
    for depth, token in enumerate(tokens):
        rest = tokens[depth:]
        if isinstance(node, dict) and token not in node and len(rest) > 1:
            for end in range(len(rest), 1, -1):
                joined = "/".join(rest[:end])
                if joined in node:
                    return format_pointer([*tokens[:depth], joined, *rest[end:]])
            if depth and tokens[depth - 1] in _STRING_MAPS:
                return format_pointer([*tokens[:depth], "/".join(rest)])
            return None
        if isinstance(node, dict):
            node = node.get(token, _ABSENT)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return None


def _json_departures(s: Situation) -> Iterator[Finding]:
    for i, op in _ops(s):
        path = op.get("path")
        name = op.get("op")
        if isinstance(path, str) and path and not path.startswith("/"):
            effect = ("fails" if "/" not in path else
                      f"drops the first segment and writes {path[path.index('/'):]}")
            yield make("kubectl-json-departure", path,
                       f"op {i}: a path without a leading '/' is not a JSON Pointer (RFC 6901 "
                       f"rejects it); kubectl {effect}. Did you mean /{path} ?")
            continue
        if name == "add" and "value" not in op:
            yield make("kubectl-json-departure", str(path),
                       f"op {i}: add without value sets null in kubectl; RFC 6902 requires "
                       f"a value")
        if isinstance(path, str):
            yield from _token_departures(s, i, op, path)


def _token_departures(s: Situation, i: int, op: dict, path: str) -> Iterator[Finding]:
    doc = _doc_before(s, i)
    raw = path.split("/")[1:]
    for token in raw:
        if "~" in token.replace("~0", "").replace("~1", ""):
            yield make("kubectl-json-departure", path,
                       f"op {i}: '{token}' holds an invalid ~ escape that kubectl keeps "
                       f"literally; RFC 6901 rejects it (write ~0 for a literal ~)")
    tokens = kubectl_tokens(path)
    parent = _lookup(doc, tokens[:-1]) if tokens else _ABSENT
    last = tokens[-1] if tokens else ""
    if isinstance(parent, list) and last != "-" and not _rfc_index(last) and _go_atoi(last):
        meaning = _index_meaning(last, len(parent), op.get("op"))
        if meaning:
            yield make("kubectl-json-departure", path,
                       f"op {i}: index '{last}' is not an RFC 6901 array index; kubectl "
                       f"accepts it ({meaning})")
    if op.get("op") == "replace" and isinstance(parent, dict) and last not in parent:
        yield make("kubectl-json-departure", path,
                   f"op {i}: replace of the missing key {last} adds it in kubectl; RFC 6902 "
                   f"requires the target to exist (use add)")
    if op.get("op") == "test" and op.get("value", 0) is None and tokens and \
            _lookup(doc, tokens) is _ABSENT:
        yield make("kubectl-json-departure", path,
                   f"op {i}: kubectl's test treats a missing path as null and passes; RFC "
                   f"6902 fails it")


def _rfc_index(token: str) -> bool:
    return token == "0" or (token.isdigit() and token.isascii() and not token.startswith("0"))


def _go_atoi(token: str) -> bool:
    """Whether Go's ``strconv.Atoi`` reads ``token`` (optional sign, ASCII digits)."""
    body = token[1:] if token[:1] in "+-" else token
    return bool(body) and body.isascii() and body.isdigit()


def _index_meaning(token: str, length: int, op: Any) -> str:
    number = int(token)
    if number < 0:
        position = length + 1 + number if op == "add" else length + number
        if position < 0:
            return ""
        if op == "add":
            return f"add at {token} inserts at position {position}"
        return f"{token} counts from the end: element {position}"
    return f"read as index {number}"


_DETECTORS: dict[str, tuple[Callable[[Situation], Iterator[Finding]], ...]] = {
    "strategic": (_atomic_replaced, _finalizers_empty, _shared_key, _key_type,
                  _delete_nothing, _delete_and_add, _retain_keys, _duplicates,
                  _directives_in_atomic, _nulls, _unknown_fields),
    "merge": (_merge_replaced, _directives_as_data, _merge_departures, _nulls,
              _unknown_fields),
    "json": (_json_map_replace, _json_index_into_keyed, _json_unescaped, _json_departures,
             _directives_as_data),
}

