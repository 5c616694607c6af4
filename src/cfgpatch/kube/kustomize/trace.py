"""What a build did, step by step, for ``kube build --explain`` (explain/build.py).

A build given a :class:`Trace` records one :class:`Step` per patch and per
transformer, in the order kustomize runs them: where it is written (kustomization file
and line, the patch file), what it selected and, for every resource it touched, the
resource's value before and after.  Without a trace nothing is copied; a trace made with
``patch_values_only`` (lint's: it reads only what patches did) records every step but copies
resource values for patch steps only (a transformer step's ``targets`` and ``touches`` stay
empty), so the large resources every transformer visits are not copied twice per step.
"""

from __future__ import annotations

from ...jsonvalue import deep_copy
from ...records import dataclass
from ...records import field as dataclass_field  # "field" is a field name below

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .resources import Resource

PATCH = "patch"
TRANSFORMER = "transformer"
GENERATOR = "generator"


@dataclass
class Touch:
    """One resource a step touched: its value before and after (``None``: deleted)."""

    resource: Resource
    before: Any
    after: Any
    label: str = ""  # the resource as named when the step ran (Deployment/web)


@dataclass
class Step:
    kind: str  # PATCH, TRANSFORMER or GENERATOR
    field: str  # the kustomization field: patches, patchesStrategicMerge, namePrefix, ...
    index: int  # the position in that field's list (0 for a scalar field)
    kustomization: str  # the kustomization file
    line: int  # where the field (or list element) is written in it
    patch_type: str = ""  # strategic or json (patches)
    patch: Any = None  # the patch value (patches)
    patch_file: str = ""  # where the patch text is (the kustomization itself when inline)
    patch_line: int = 0
    patch_positions: dict = dataclass_field(default_factory=dict)  # pointer -> (line, column)
    selector: dict | None = None  # the target, as written
    patch_kinds: tuple[str, ...] = ()  # the kinds the patch names (its own kind, target kind)
    targets: list[str] = dataclass_field(default_factory=list)  # what it selected, by name
    touches: list[Touch] = dataclass_field(default_factory=list)
    #: The resource the step failed on (its value before; after is None), if it failed.
    failed: Touch | None = None

    def describe(self) -> str:
        where = f"{self.kustomization}:{self.line}" if self.line else self.kustomization
        suffix = f"[{self.index}]" if self.kind == PATCH else ""
        return f"{self.field}{suffix} ({where})"


@dataclass
class Trace:
    steps: list[Step] = dataclass_field(default_factory=list)
    #: Record what transformers and replacements touched too (``False``: patches only).
    patch_values_only: bool = False

    def values_of(self, step: Step) -> Step | None:
        """``step`` when the values a (non-patch) step touches are recorded, else None."""
        return None if self.patch_values_only else step

    def begin(self, step: Step) -> Step:
        self.steps.append(step)
        return step


def snapshot(value: Any) -> Any:
    return deep_copy(value)
