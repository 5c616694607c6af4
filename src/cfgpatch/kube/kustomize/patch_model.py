"""A kustomize patch entry, loaded: :class:`Patch` (one entry of ``patches``,
``patchesStrategicMerge`` or ``patchesJson6902``) and its strategic documents
(:class:`Document`)."""

from __future__ import annotations

from ...records import dataclass
from ...records import field as dataclass_field  # "field" is a field name below
from .kustomization import Kustomization
from .resources import Gvk, ResId
from .selectors import Selector

STRATEGIC, JSON = "strategic", "json"


@dataclass
class Document:
    """One strategic merge patch document and where each of its fields is written."""

    value: dict
    positions: dict[str, tuple[int, int]] = dataclass_field(default_factory=dict)
    #: the patch with its labels and annotations as strings (kustomize sets them so on
    #: the copy it merges when the patch has a ``target``)
    targeted: dict | None = None
    #: where a scalar's source text is not its value's (:mod:`.patchtexts`)
    texts: dict = dataclass_field(default_factory=dict)
    #: a plain key reads as no string (:mod:`.plainkeys`)
    typed_keys: bool = False

    def org_id(self) -> ResId:
        meta = self.value.get("metadata")
        meta = meta if isinstance(meta, dict) else {}
        name, namespace = meta.get("name"), meta.get("namespace")
        return ResId(Gvk.of(self.value), name if isinstance(name, str) else "",
                     namespace if isinstance(namespace, str) else "")


@dataclass
class Patch:
    """One entry of a patch field, loaded and detected."""

    kustomization: Kustomization
    field: str
    index: int
    type: str
    file: str
    line: int  # of the entry in the kustomization
    offset: int = 0  # lines before the patch text in ``file``
    documents: list[Document] = dataclass_field(default_factory=list)
    ops: list = dataclass_field(default_factory=list)
    op_positions: dict[str, tuple[int, int]] = dataclass_field(default_factory=dict)
    target: Selector | None = None
    target_raw: dict | None = None
    options: dict = dataclass_field(default_factory=dict)

    def kinds(self) -> tuple[str, ...]:
        named = [d.value.get("kind") for d in self.documents]
        if self.target is not None and self.target.kind:
            named.append(self.target.kind)
        return tuple(k for k in dict.fromkeys(named) if isinstance(k, str) and k)
