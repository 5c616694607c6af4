"""Patch targets: which resources a kustomize ``target:`` selects.

A :class:`Selector` holds the fields of a ``target`` (``group``, ``version``, ``kind``,
``name``, ``namespace``, ``labelSelector``, ``annotationSelector``).  As kustomize does:

* group, version, kind, name and namespace are regular expressions (Go's RE2 syntax),
  anchored at both ends: ``name: web`` does not select ``web-frontend``, ``web-.*``
  does, ``kind: Deployment|StatefulSet`` selects both kinds;
* name and namespace match the resource's **original** id (before any prefix, suffix or
  namespace of the kustomizations below) **or** its current one; a resource without a
  namespace is in ``default``;
* ``labelSelector`` and ``annotationSelector`` use Kubernetes' label selector syntax
  (``a=b``, ``a!=b``, ``a in (x,y)``, ``a notin (x)``, ``a``, ``!a``, comma = and).

:func:`select` returns the selected resources in build order.
"""

from __future__ import annotations

import re

from ...errors import KUSTOMIZE_ERROR, KubeError
from ...lazy_pattern import lazily
from ...records import dataclass
from ..problems import Kustomize, ProblemError
from .resources import Resource

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

FIELDS = ("group", "version", "kind", "name", "namespace", "labelSelector",
          "annotationSelector")


@dataclass(frozen=True)
class Selector:
    group: str = ""
    version: str = ""
    kind: str = ""
    name: str = ""
    namespace: str = ""
    label_selector: str = ""
    annotation_selector: str = ""

    @classmethod
    def from_dict(cls, raw: dict) -> Selector:
        return cls(*(str(raw.get(key) or "") for key in FIELDS))

    def to_dict(self) -> dict:
        values = (self.group, self.version, self.kind, self.name, self.namespace,
                  self.label_selector, self.annotation_selector)
        return {key: value for key, value in zip(FIELDS, values) if value}

    def describe(self) -> str:
        """``kind=Deployment name=web-.*`` (the fields that are set)."""
        return " ".join(f"{k}={v}" for k, v in self.to_dict().items()) or "(everything)"


def go_regexp(pattern: str) -> re.Pattern:
    """Compile a Go (RE2) pattern as kustomize anchors it: ``^(?:pattern)$``.

    RE2 spellings Python lacks are translated (``\\z``, ``[[:alpha:]]``); constructs RE2
    refuses (look-arounds, back-references) are refused with Go's message.
    """
    for bad, what in (("(?=", "(?="), ("(?!", "(?!"), ("(?<=", "(?<="), ("(?<!", "(?<!")):
        if bad in pattern:
            raise ProblemError(Kustomize("regexp-perl-syntax", detail=what),
                               code=KUSTOMIZE_ERROR)
    backref = re.search(r"\\[1-9]", pattern)
    if backref:
        raise ProblemError(Kustomize("regexp-escape", detail=backref.group(0)),
                           code=KUSTOMIZE_ERROR)
    text = pattern.replace("\\z", "\\Z")
    for posix, python in _POSIX.items():
        text = text.replace(f"[:{posix}:]", python)
    try:
        return re.compile(f"^(?:{text})$")
    except re.error as err:
        # (Python's words for what RE2 would refuse in its own)
        raise ProblemError(Kustomize("regexp", name=str(err), detail=pattern),
                           code=KUSTOMIZE_ERROR) from None


_POSIX = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7F", "blank": "\\t ",
          "cntrl": "\\x00-\\x1F\\x7F", "digit": "0-9", "graph": "!-~", "lower": "a-z",
          "print": " -~", "punct": "!-/:-@[-`{-~", "space": "\\t\\n\\v\\f\\r ",
          "upper": "A-Z", "word": "0-9A-Za-z_", "xdigit": "0-9A-Fa-f"}


class _Compiled:
    def __init__(self, selector: Selector) -> None:
        self.selector = selector
        self.group = go_regexp(selector.group) if selector.group else None
        self.version = go_regexp(selector.version) if selector.version else None
        self.kind = go_regexp(selector.kind) if selector.kind else None
        self.name = go_regexp(selector.name) if selector.name else None
        self.namespace = go_regexp(selector.namespace) if selector.namespace else None
        self.labels = parse_label_selector(selector.label_selector)
        self.annotations = parse_label_selector(selector.annotation_selector)

    def matches(self, resource: Resource) -> bool:
        org, cur = resource.org_id(), resource.cur_id()
        if self.namespace and not (self.namespace.match(org.effective_namespace())
                                   or self.namespace.match(cur.effective_namespace())):
            return False
        if self.name and not (self.name.match(org.name) or self.name.match(cur.name)):
            return False
        gvk = cur.gvk
        for regexp, text in ((self.group, gvk.group), (self.version, gvk.version),
                             (self.kind, gvk.kind)):
            if regexp is not None and not regexp.match(text):
                return False
        return (_satisfies(self.labels, resource.labels())
                and _satisfies(self.annotations, resource.annotations()))


def select(resources: list[Resource], selector: Selector) -> list[Resource]:
    """The resources ``selector`` selects, in build order."""
    compiled = _Compiled(selector)
    return [r for r in resources if compiled.matches(r)]


def matches(resource: Resource, selector: Selector) -> bool:
    return _Compiled(selector).matches(resource)


# ------------------------------------------------------------- label selectors

@dataclass(frozen=True)
class Requirement:
    key: str
    operator: str  # = != in notin exists !exists gt lt
    values: tuple[str, ...] = ()

    def satisfied(self, labels: dict) -> bool:
        present = self.key in labels
        value = labels.get(self.key)
        text = value if isinstance(value, str) else ("" if value is None else str(value))
        if self.operator in ("=", "in"):
            return present and text in self.values
        if self.operator in ("!=", "notin"):
            return not present or text not in self.values
        if self.operator == "exists":
            return present
        if self.operator == "!exists":
            return not present
        if not present:
            return False
        try:
            number, bound = int(text), int(self.values[0])
        except ValueError:
            return False
        return number > bound if self.operator == "gt" else number < bound


_TOKEN = lazily(r"\s*(\(|\)|,|!=|==|=|!|[^\s(),=!]+)")


def parse_label_selector(text: str) -> tuple[Requirement, ...]:
    """Kubernetes' label selector syntax, e.g. ``tier in (web,api),!canary,env=prod``.

    >>> [r.operator for r in parse_label_selector("a=b, c in (x,y), !d, e")]
    ['=', 'in', '!exists', 'exists']
    """
    tokens = _tokens(text)
    out: list[Requirement] = []
    i = 0
    while i < len(tokens):
        if tokens[i] in ("(", ")", ",", "=", "==", "!="):
            raise _selector_error(_found(tokens[i], "start"), requirement=False)
        requirement, i = _requirement(tokens, i, text)
        out.append(requirement)
        if i < len(tokens):
            if tokens[i] != ",":
                raise _selector_error(_found(tokens[i], "separator"), requirement=False)
            i += 1
            following = tokens[i] if i < len(tokens) else ""
            if following in ("", "(", ")", ",", "=", "==", "!="):
                raise _selector_error(_found(following, "after-comma"), requirement=False)
    return tuple(out)


def _tokens(text: str) -> list[str]:
    tokens = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None:  # pragma: no cover - the pattern accepts every character
            raise _selector_error(Kustomize("selector-character", detail=pos))
        tokens.append(match.group(1))
        pos = match.end()
    return tokens


def _requirement(tokens: list[str], i: int, text: str) -> tuple[Requirement, int]:
    if tokens[i] == "!":
        if i + 1 >= len(tokens) or tokens[i + 1] in "(),=!":
            found = tokens[i + 1] if i + 1 < len(tokens) else ""
            raise _selector_error(_found(found, "identifier"))
        return Requirement(tokens[i + 1], "!exists"), i + 2
    key = tokens[i]
    i += 1
    if i >= len(tokens) or tokens[i] == ",":
        return Requirement(key, "exists"), i
    op = tokens[i]
    if op in ("=", "=="):
        return _single(key, "=", tokens, i + 1, text)
    if op == "!=":
        return _single(key, "!=", tokens, i + 1, text)
    if op in ("in", "notin"):
        return _set(key, op, tokens, i + 1, text)
    if op in ("gt", "lt"):
        return _single(key, op, tokens, i + 1, text)
    if op.startswith(">") or op.startswith("<"):
        return Requirement(key, "gt" if op[0] == ">" else "lt", (op[1:],)), i + 1
    raise _selector_error(_found(op, "operator"))


def _single(key: str, op: str, tokens: list[str], i: int, text: str) -> tuple[Requirement, int]:
    if i >= len(tokens) or tokens[i] == ",":
        return Requirement(key, op, ("",)), i
    if tokens[i] in ("(", ")", "=", "==", "!=", "!"):
        raise _selector_error(_found(tokens[i], "identifier"))
    return Requirement(key, op, (tokens[i],)), i + 1


def _set(key: str, op: str, tokens: list[str], i: int, text: str) -> tuple[Requirement, int]:
    """``(a, b)`` after ``in`` or ``notin``, read as the labels parser reads a values list
    (``(,`` and ``,)`` hold an empty value)."""
    token = tokens[i] if i < len(tokens) else ""
    if token != "(":
        raise _selector_error(_found(token, "open"))
    i += 1
    token = tokens[i] if i < len(tokens) else ""
    if token == ")":
        return Requirement(key, op, ("",)), i + 1
    if token in ("", "(", "=", "==", "!=", "!"):
        raise _selector_error(_found(token, "set-first"))
    values: list[str] = []
    while True:
        token = tokens[i] if i < len(tokens) else ""
        if token == ",":
            if not values:
                values.append("")  # "(,"
            i += 1
            following = tokens[i] if i < len(tokens) else ""
            if following == ")":
                return Requirement(key, op, (*values, "")), i + 1  # ",)"
            if following == ",":
                values.append("")
            continue
        if token in ("", "(", ")", "=", "==", "!=", "!"):
            raise _selector_error(_found(token, "set-value"))
        values.append(token)
        i += 1
        following = tokens[i] if i < len(tokens) else ""
        if following == ")":
            return Requirement(key, op, tuple(values)), i + 1
        if following != ",":
            raise _selector_error(_found(following, "set-next"))


def labels_match(text: str, labels: Any) -> bool:
    """Whether ``labels`` satisfy the label selector ``text``."""
    return _satisfies(parse_label_selector(text), labels)


def _satisfies(requirements: tuple[Requirement, ...], labels: Any) -> bool:
    labels = labels if isinstance(labels, dict) else {}
    return all(r.satisfied(labels) for r in requirements)


def _found(token: str, expected: str) -> Kustomize:
    """The labels parser found ``token`` where it ``expected`` (``start``, ``separator``,
    ``after-comma``, ``identifier``, ``operator``, ``open``, ``set-first``,
    ``set-value``, ``set-next``: see ``compat.kustomize``)."""
    return Kustomize("selector-found", name=token, detail=expected)


def _selector_error(problem: Kustomize, requirement: bool = True) -> KubeError:
    """The labels parser's error: a problem inside one requirement is within
    ``selector-requirement``, one between them is bare."""
    return ProblemError(Kustomize("selector-requirement", cause=problem) if requirement
                        else problem, code=KUSTOMIZE_ERROR)
