"""A resource as kustomize holds it during a build (:class:`Resource`), its identity
(:class:`Gvk`, :class:`ResId`: group, version, kind, name and namespace, printed as
``Deployment.v1.apps/web.[noNs]``), where it was read (:class:`Source`), whether it was
generated (:class:`Generated`), and the kind order of the output (:data:`ORDER_FIRST`,
:data:`ORDER_LAST`)."""

from __future__ import annotations

from ...records import dataclass, field
from .nodes import text
from .scopes import is_cluster_scoped

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .repeated import RepeatedKeys

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
        api_version = scalar_text(value.get("apiVersion")) if isinstance(value, dict) else ""
        kind = scalar_text(value.get("kind")) if isinstance(value, dict) else ""
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

    def duplicate_keys(self, value: Any = None) -> tuple[tuple[int, str, int], ...]:
        """The keys written twice as go-yaml reports them (line, key, line of the first),
        were the resource ``value`` (by default its current value); empty when there
        are none."""
        if self.repeated is None:
            return ()
        return self.repeated.keys(self.value if value is None else value)

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
        value = metadata_map(self.value).get(key)
        entry = self.texts.get(("metadata", key))
        if entry is not None and type(entry[1]) is type(value) and entry[1] == value:
            return entry[0]
        return scalar_text(value)

    def cur_id(self) -> ResId:
        return ResId(self.gvk, self.name, self.namespace)

    def org_id(self) -> ResId:
        return self._previous()[0] if self.previous else self.cur_id()

    def any_ids(self) -> list[ResId]:
        return [*self._previous(), self.cur_id()]

    def _previous(self) -> list[ResId]:
        """The previous ids, as kustomize reads them back from its comma-separated
        annotations: a name, namespace or kind holding a comma splits into more entries,
        and when the three lists then differ in length kustomize panics (``number of
        previous names, ...``); ``kube build`` refuses with that message."""
        previous = self.previous
        if previous and any("," in p.name or "," in p.namespace or "," in p.gvk.kind
                            for p in previous):
            counts = {sum(1 + field.count(",") for field in fields) for fields in (
                [p.name for p in previous], [p.namespace for p in previous],
                [p.gvk.kind for p in previous])}
            if len(counts) > 1:
                from ...errors import KUSTOMIZE_ERROR, KubeError

                raise KubeError(
                    "number of previous names, number of previous namespaces, number of "
                    "previous kinds not equal", code=KUSTOMIZE_ERROR,
                    hint="a name, namespace or kind holding a comma, renamed or moved by "
                         "a transformer: kustomize keeps previous ids comma-separated and "
                         "panics here (kubectl exits 2 with a Go stack trace)")
        return previous

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
        found = metadata_map(self.value).get("labels")
        return found if isinstance(found, dict) else {}

    def annotations(self) -> dict:
        found = metadata_map(self.value).get("annotations")
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
        """kustomize's PrevIds: the ids stored before renames, patches and namespace
        changes; none for a resource no transformer touched (so a name reference never
        picks it, and a subject naming it gets no namespace)."""
        return list(self._previous())


def metadata_map(value: Any) -> dict:
    """The ``metadata`` map of a resource value ({} when it has none)."""
    meta = value.get("metadata") if isinstance(value, dict) else None
    return meta if isinstance(meta, dict) else {}


def scalar_text(value: Any) -> str:
    """A field kustomize reads as a string: a number or boolean is its Go text (kind
    ``1.5``, name ``true``); a null, map or list is no text."""
    if isinstance(value, str):
        return value
    if value is None or isinstance(value, (dict, list)):
        return ""
    return text(value)
