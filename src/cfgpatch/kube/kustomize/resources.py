"""Resources as kustomize holds them during a build: identity, history, output order.

A :class:`Resource` is one object of the build: its current value (plain JSON values),
where it was read (:class:`Source`: file, document, the position of every field), the
ids it had before a transformer renamed it (kustomize keeps them to match patch targets
and name references against the *original* names), and, for generated ConfigMaps and
Secrets, whether a content hash still has to be appended to its name.

Identity follows kustomize's ``ResId``: group, version, kind, name and namespace, printed
as ``Deployment.v1.apps/web.[noNs]``.  :func:`legacy_sort` is the order ``kubectl
kustomize`` prints resources in (measured; tests/data/kustomize/trees).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..io.kyaml import KyamlError, Node
from ..io.kyaml_duplicates import drop_duplicates, scan_keys
from ..io.kyaml_merge import expand_merge_keys
from ..io.kyaml_read import read_resource_documents
from ..io.kyaml_write import write_value
from .kustomization import ORIGIN
from .nodes import text
from .patchtexts import source_texts, spelled
from .positions import node_positions
from .repeated import RepeatedKeys
from .scopes import is_cluster_scoped
from .styles import metadata_texts, styled_with_typed_keys

#: kustomize's kind order for output: these first, these last, the rest in between.
ORDER_FIRST = (
    "Namespace", "ResourceQuota", "StorageClass", "CustomResourceDefinition",
    "ServiceAccount", "PodSecurityPolicy", "Role", "ClusterRole", "RoleBinding",
    "ClusterRoleBinding", "ConfigMap", "Secret", "Endpoints", "Service", "LimitRange",
    "PriorityClass", "PersistentVolume", "PersistentVolumeClaim", "Deployment",
    "StatefulSet", "CronJob", "PodDisruptionBudget",
)
ORDER_LAST = ("MutatingWebhookConfiguration", "ValidatingWebhookConfiguration")


@dataclass(frozen=True)
class Gvk:
    """Group, version and kind (``apps``, ``v1``, ``Deployment``; the core group is "")."""

    group: str = ""
    version: str = ""
    kind: str = ""

    @classmethod
    def of(cls, value: Any) -> Gvk:
        api_version = _text(value.get("apiVersion")) if isinstance(value, dict) else ""
        kind = _text(value.get("kind")) if isinstance(value, dict) else ""
        group, _, version = api_version.rpartition("/")
        return cls(group, version, kind)

    def __str__(self) -> str:
        """kustomize's spelling: ``Deployment.v1.apps``, ``ConfigMap.v1.[noGrp]``."""
        return ".".join((self.kind or "[noKind]", self.version or "[noVer]",
                         self.group or "[noGrp]"))

    def selected_by(self, other: Gvk) -> bool:
        """Whether ``other``'s non-empty fields all equal this one's (kustomize's IsSelected)."""
        return ((not other.group or other.group == self.group)
                and (not other.version or other.version == self.version)
                and (not other.kind or other.kind == self.kind))

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version


@dataclass(frozen=True)
class ResId:
    """A resource's identity: its :class:`Gvk`, name and namespace ("" when unset)."""

    gvk: Gvk
    name: str = ""
    namespace: str = ""

    def __str__(self) -> str:
        return f"{self.gvk}/{self.name}.{self.namespace or '[noNs]'}"

    @property
    def cluster_scoped(self) -> bool:
        return is_cluster_scoped(self.gvk.api_version, self.gvk.kind)

    def effective_namespace(self) -> str:
        """The namespace selectors compare: "" reads as ``default`` for namespaced kinds."""
        if self.cluster_scoped:
            return "_non_namespaceable_"
        return self.namespace or "default"

    def same_namespace(self, other: ResId) -> bool:
        return self.effective_namespace() == other.effective_namespace()


@dataclass
class Source:
    """Where a resource (or a patch) was read: file, document index, field positions.

    ``positions`` maps a JSON pointer into the document as read to its ``(line,
    column)`` (1-based; for a map member, the position of its key).
    """

    file: str
    document: int = 0
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)

    def position(self, pointer: str = "") -> tuple[int, int]:
        return self.positions.get(pointer, self.positions.get("", (0, 0)))


@dataclass
class Generated:
    """What a generator said about the resource it made."""

    behavior: str = "create"  # create | merge | replace
    needs_hash: bool = True
    kustomization: str = ""
    #: kustomize's generatorBehavior annotation: the word written (``unspecified`` when
    #: none or an unknown one); the first generator's, kept through merge and replace,
    #: and None after a generator merged into a resource read from a file (measured)
    written: str | None = "unspecified"


@dataclass(eq=False)
class Resource:
    """One object of the build (compared by identity, as kustomize's pointers are)."""

    value: dict
    source: Source
    previous: list[ResId] = field(default_factory=list)
    generated: Generated | None = None
    prefixes: list[str] = field(default_factory=list)
    suffixes: list[str] = field(default_factory=list)
    #: groups of field paths that hold one shared YAML node (see aliases.py)
    aliases: list[set] = field(default_factory=list)
    #: keys its file wrote twice (kustomize refuses the resource at the end)
    repeated: RepeatedKeys | None = None
    #: kustomize wrote a map key that reads as no string (see plainkeys.py)
    typed_keys: bool = False
    #: fields a replacement created as plain non-string scalars (see replacements.py)
    retyped: list[str] = field(default_factory=list)
    #: plain scalars whose node text is not their value's (``0x10``, ``1.50``): path ->
    #: (that text, the value it decoded to); a replacement copies the text
    texts: dict[tuple, tuple[str, Any]] = field(default_factory=dict)
    #: the ``vars`` whose ``objref`` matched it (see variables.py)
    ref_vars: list[str] = field(default_factory=list)

    def duplicate_errors(self, value: Any = None) -> list[str]:
        """go-yaml's lines for the keys written twice, were the resource ``value`` (by
        default its current value); empty when there are none."""
        if self.repeated is None:
            return []
        return self.repeated.messages(self.value if value is None else value)

    @property
    def gvk(self) -> Gvk:
        return Gvk.of(self.value)

    @property
    def name(self) -> str:
        return self._metadata_text("name")

    @property
    def namespace(self) -> str:
        return self._metadata_text("namespace")

    def _metadata_text(self, key: str) -> str:
        """A metadata field as kustomize reads it: a number or boolean by its text as
        written (``name: 010`` is "010"), while it holds what was read."""
        value = _metadata(self.value).get(key)
        entry = self.texts.get(("metadata", key))
        if entry is not None and type(entry[1]) is type(value) and entry[1] == value:
            return entry[0]
        return _text(value)

    def cur_id(self) -> ResId:
        return ResId(self.gvk, self.name, self.namespace)

    def org_id(self) -> ResId:
        return self.previous[0] if self.previous else self.cur_id()

    def any_ids(self) -> list[ResId]:
        return [*self.previous, self.cur_id()]

    def internal_annotations(self) -> dict[str, str]:
        """The internal annotations kustomize holds on the resource while it builds (a
        JSON patch sees them, a namespace conflict prints them): a generator's behavior
        and hash suffix, then :meth:`previous_id_annotations`."""
        found: dict[str, str] = {}
        if self.generated is not None:
            if self.generated.written is not None:
                found["internal.config.kubernetes.io/generatorBehavior"] = self.generated.written
            if self.generated.needs_hash:
                found["internal.config.kubernetes.io/needsHashSuffix"] = "enabled"
        return {**found, **self.previous_id_annotations()}

    def previous_id_annotations(self) -> dict[str, str]:
        """kustomize's internal annotations of the previous ids (kinds, names and
        namespaces, comma-separated; no namespace is written ``default``; none before the
        resource was first renamed or patched), with the name prefixes and suffixes added
        so far, in the order they were (when there are any)."""
        previous = self.previous
        found = {
            "internal.config.kubernetes.io/previousKinds": ",".join(p.gvk.kind for p in previous),
            "internal.config.kubernetes.io/previousNames": ",".join(p.name for p in previous),
            "internal.config.kubernetes.io/previousNamespaces":
                ",".join(p.namespace or "default" for p in previous),
        } if previous else {}
        if self.prefixes:
            found["internal.config.kubernetes.io/prefixes"] = ",".join(self.prefixes)
        if self.suffixes:
            found["internal.config.kubernetes.io/suffixes"] = ",".join(self.suffixes)
        return found

    def store_previous_id(self) -> None:
        """Remember the current id before a transformer changes it (kustomize's
        StorePreviousId)."""
        self.previous.append(self.cur_id())

    def labels(self) -> dict:
        found = _metadata(self.value).get("labels")
        return found if isinstance(found, dict) else {}

    def annotations(self) -> dict:
        found = _metadata(self.value).get("annotations")
        return found if isinstance(found, dict) else {}

    def describe(self) -> str:
        """``Deployment/web`` (with ``ns/`` in front when namespaced), for people."""
        ns = f"{self.namespace}/" if self.namespace else ""
        return f"{self.gvk.kind}/{ns}{self.name}"

    def metadata(self) -> dict:
        """The ``metadata`` map (created when missing or not a map)."""
        meta = self.value.get("metadata")
        if not isinstance(meta, dict):
            meta = self.value["metadata"] = {}
        return meta

    def set_name(self, name: str) -> None:
        self.metadata()["name"] = name

    def set_namespace(self, namespace: str) -> None:
        """kustomize's SetNamespace: the empty namespace removes the field."""
        if namespace:
            self.metadata()["namespace"] = namespace
        else:
            self.metadata().pop("namespace", None)

    def prev_ids(self) -> list[ResId]:
        """kustomize's PrevIds: the ids before renames, or the current one."""
        return list(self.previous) if self.previous else [self.cur_id()]


def _metadata(value: Any) -> dict:
    meta = value.get("metadata") if isinstance(value, dict) else None
    return meta if isinstance(meta, dict) else {}


def _text(value: Any) -> str:
    """A field kustomize reads as a string: a number or boolean is its Go text (kind
    ``1.5``, name ``true``); a null, map or list is no text."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, (dict, list)):
        return ""
    return text(value)


def legacy_sort(resources: list[Resource], first: tuple[str, ...] = ORDER_FIRST,
                last: tuple[str, ...] = ORDER_LAST) -> list[Resource]:
    """``kubectl kustomize``'s output order: kinds of ``first`` in that order, then the
    other kinds by ``group_version_kind`` (``~G`` for the core group), then ``last``;
    resources of one type by namespace (``~X`` for none), then name.

    The ranks are kustomize's table: ``first``'s, then ``last``'s written over them, so
    a kind named twice takes its last place, in ``last`` if it is there (measured).
    """
    ranks = {kind: index - len(first) for index, kind in enumerate(first)}
    ranks.update({kind: index + 1 for index, kind in enumerate(last)})

    def key(resource: Resource) -> tuple:
        cur = resource.cur_id()
        gvk = cur.gvk
        rank = ranks.get(gvk.kind, 0)
        gvk_text = "_".join((gvk.group or "~G", gvk.version or "~V", gvk.kind or "~K"))
        return rank, gvk_text, f"{cur.namespace or '~X'}|{cur.name or '~N'}"

    return sorted(resources, key=key)


def read_resources(text: str, file: str) -> list[Resource]:
    """The resources of a YAML file, as kustomize's resource factory reads them.

    Empty documents are dropped; a ``kind: ...List`` with ``items`` is replaced by its
    items; a document without ``kind`` or ``metadata.name`` is kustomize's error.
    """
    try:
        documents = read_resource_documents(text, file)
    except KyamlError as err:
        raise _unreadable(err) from None
    try:
        scanned = [(node, scan_keys(node)) for node in documents]
        nodes = [(expand_merge_keys(node) if merge else node, twice)
                 for node, (merge, twice) in scanned]
    except KyamlError as err:
        failed = KubeError(err.message, code=KUSTOMIZE_ERROR)
        failed.malformed = getattr(err, "malformed", True)  # type: ignore[attr-defined]
        raise failed from None
    out: list[Resource] = []
    for index, (node, twice) in enumerate(nodes):
        repeated = RepeatedKeys.of(text, node) if twice else None
        if repeated:  # kustomize reads what it can and refuses the resource at the end
            drop_duplicates(node)
        value, typed = styled_with_typed_keys(node, check=not repeated)
        metadata_texts(node, value)
        texts = spelled(value, source_texts(node, value, in_lists=True))
        positions = node_positions(node)
        if repeated:
            repeated.remember(value)
        for pointer, item in _inline_lists(value, ""):
            out.append(Resource(item, Source(file, index, _rebase(positions, pointer)),
                                repeated=repeated, typed_keys=typed,
                                texts=_texts_below(texts, pointer)))
    return out


def _texts_below(texts: dict[tuple, tuple], pointer: str) -> dict[tuple, tuple]:
    """The entries of ``texts`` inside the item at ``pointer`` (``/items/2``), from it."""
    if not pointer:
        return texts
    steps = tuple(int(t) if t.isdigit() else t for t in pointer.split("/")[1:])
    return {path[len(steps):]: entry for path, entry in texts.items()
            if path[:len(steps)] == steps}


def _unreadable(err: KyamlError) -> KubeError:
    """kustomize's error for a resource file go-yaml cannot read: ``MalformedYAMLError:``
    and go-yaml's message (the caller adds ``in File:`` and the path as written,
    ``in_file``); a bad separator line is a plain error (kustomize then tries the path
    as a folder)."""
    malformed = getattr(err, "malformed", True)
    failed = KubeError(f"MalformedYAMLError: {err.message}" if malformed else err.message,
                       code=KUSTOMIZE_ERROR)
    failed.malformed = malformed  # type: ignore[attr-defined]
    failed.in_file = malformed  # type: ignore[attr-defined]
    return failed


def read_node(node: Node) -> Node:
    """A document as kustomize holds it once read: merge keys expanded (aliases copied)."""
    return expand_merge_keys(node) if scan_keys(node)[0] else node


def _inline_lists(value: Any, pointer: str) -> list[tuple[str, Any]]:
    if not isinstance(value, dict):
        raise _unusable("missing Resource metadata")
    kind = _text(value.get("kind"))
    if kind.endswith("List") and isinstance(value.get("items"), list):
        out = []
        for index, item in enumerate(value["items"]):
            out += _inline_lists(item, f"{pointer}/items/{index}")
        return out
    if not kind:
        raise _unusable(f"missing kind in object {_go_meta(value)}")
    if not _text(_metadata(value).get("name")) and not kind.endswith("List"):
        raise _unusable(f"missing metadata.name in object {_go_meta(value)}")
    return [(pointer, value)]


def _unusable(message: str) -> KubeError:
    """A document kustomize reads but cannot take as a resource: not a YAML error, so
    kustomize then tries the path as a folder."""
    failed = KubeError(message, code=KUSTOMIZE_ERROR)
    failed.malformed = False  # type: ignore[attr-defined]
    return failed


def _go_meta(value: dict) -> str:
    """Go's ``%v`` of the document read as kyaml's ``ResourceMeta`` (type and name fields,
    labels and annotations, maps with their keys sorted), as kustomize's errors print it.

    >>> _go_meta({"apiVersion": "v1", "metadata": {"name": "a", "labels": {"x": 1}}})
    '{{v1 } {{a } map[x:1] map[]}}'
    """
    meta = _metadata(value)

    def scalar(item: Any) -> str:  # a null is "" (an annotation written ``~`` too)
        if item is None or getattr(item, "decoded", "") is None:
            return ""
        return text(item)

    def go_map(found: Any) -> str:
        pairs = found.items() if isinstance(found, dict) else ()
        return "map[" + " ".join(f"{k}:{scalar(v)}" for k, v in sorted(pairs)) + "]"

    return (f"{{{{{scalar(value.get('apiVersion'))} {scalar(value.get('kind'))}}} "
            f"{{{{{scalar(meta.get('name'))} {scalar(meta.get('namespace'))}}} "
            f"{go_map(meta.get('labels'))} {go_map(meta.get('annotations'))}}}}}")


def _rebase(positions: dict[str, tuple[int, int]], prefix: str) -> dict[str, tuple[int, int]]:
    if not prefix:
        return positions
    return {p[len(prefix):]: at for p, at in positions.items()
            if p == prefix or p.startswith(prefix + "/")}


def annotate_origin(resource: Resource, origin: dict) -> None:
    """``buildMetadata: [originAnnotations]``: where the resource came from, as
    kustomize's ``Origin.String()`` writes it (a YAML map of ``origin``'s fields, in
    the order given), set when it is read or generated, so every patch and
    transformer after sees it."""
    meta = resource.value.setdefault("metadata", {})
    if isinstance(meta, dict):
        annotations = meta.get("annotations")
        # the fields in the order of kustomize's Origin struct, not sorted
        text = "".join(write_value({key: value}) for key, value in origin.items())
        meta["annotations"] = {**annotations, ORIGIN: text} if isinstance(annotations, dict) \
            else {ORIGIN: text}


#: ``buildMetadata: [transformerAnnotations]``: the built-in transformers that ran.
TRANSFORMATIONS = "alpha.config.kubernetes.io/transformations"


def record_transformation(resource: Resource, configured_in: str, kind: str,
                          name: str = "", namespace: str = "") -> None:
    """Add one entry to the resource's transformations annotation, as kustomize does
    after each built-in transformer of a kustomization ran (on every resource there,
    changed or not), so later patches see it."""
    meta = resource.value.setdefault("metadata", {})
    if not isinstance(meta, dict):
        return
    annotations = meta.get("annotations")
    if not isinstance(annotations, dict):
        annotations = {}
    entry = (f"- configuredIn: {configured_in}\n  configuredBy:\n    apiVersion: builtin\n"
             f"    kind: {kind}\n")
    if name:  # a plugin given as configuration: its name and namespace too
        entry += f"    name: {name}\n"
    if namespace:
        entry += f"    namespace: {namespace}\n"
    previous = annotations.get(TRANSFORMATIONS)
    text = (previous if isinstance(previous, str) else "") + entry
    meta["annotations"] = {**annotations, TRANSFORMATIONS: text}
