"""What lint knows about a build: the patches (where their text is) and what each did.

The build adapter (``lint.kbuild``) turns ``kube build``'s step log into these;
the detectors (``lint.checks``) read only these.

* :class:`PatchSite`: one patch as written: the file holding its text, where the text
  starts, how positions inside the text map to the file, its type, target and value;
* :class:`Application`: the patch applied to one resource: before and after, and the
  patch engine's findings (pointers into ``before``);
* :class:`Outcome`: one linted unit (a kustomization, a Flux Kustomization, a standalone
  patch): its sites, applications, and a build failure if there was one.
"""

from __future__ import annotations

from ..errors import CfgPatchError
from ..records import dataclass, field
from .finding import Location
from .yamlpos import Mapper, Span, Tree, identity

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


@dataclass
class PatchSite:
    """One patch as written."""

    #: The file holding the patch text (repository-relative).
    file: str
    #: The patch's text (the whole file for a ``path:`` patch).
    text: str
    #: Maps a span inside ``text`` to the span in ``file``.
    mapper: Mapper = identity
    #: ``strategic``, ``json6902`` (kustomize) or ``merge``/``json`` (standalone patches).
    patch_type: str = "strategic"
    #: The parsed patch (None when it could not be read).
    patch: Any = None
    #: The target selector as written (None: a strategic patch targets itself).
    target: dict | None = None
    #: The file that declares the patch (kustomization, Flux object or .cfgpatch.yaml).
    declared_in: str = ""
    #: Where the selector is written (for messages), if anywhere.
    target_location: Location | None = None
    #: A label for messages ("patches[2] of overlays/prod/kustomization.yaml").
    label: str = ""
    #: Which YAML document of ``text`` the patch is (a file may hold several patches).
    document: int = 0
    #: The kustomization field and list position that declare the patch (``patches``, 0).
    field_name: str = ""
    index: int = -1
    #: The entry's ``options`` (``allowNameChange``, ``allowKindChange``).
    options: dict = field(default_factory=dict)
    #: The position tree of ``text`` (filled on demand by ``lint.locate``).
    tree: Tree | None = None

    def location(self, span: Span | None = None) -> Location:
        """The file location of ``span`` inside the text (default: the text's first line)."""
        if span is None:
            span = self._first_span()
        mapped = self.mapper(span)
        return Location(self.file, mapped.line, mapped.column, mapped.end_line,
                        mapped.end_column)


    def _first_span(self) -> Span:
        """The first line of the patch document (comments above it skipped)."""
        if self.tree is None:
            from .yamlpos import documents
            try:
                trees = documents(self.text)
            except ValueError:
                trees = []
            if self.document < len(trees):
                self.tree = trees[self.document]
        if self.tree is not None:
            return self.tree.root_span()
        return Span(1, 1, 1, max(2, len(self.text.split("\n", 1)[0].rstrip()) + 1))


@dataclass(frozen=True)
class ResourceId:
    api_version: str
    kind: str
    name: str
    namespace: str = ""

    @property
    def group(self) -> str:
        return self.api_version.rsplit("/", 1)[0] if "/" in self.api_version else ""

    def describe(self) -> str:
        ns = f" in namespace {self.namespace}" if self.namespace else ""
        return f"{self.kind}/{self.name}{ns}"


@dataclass
class Application:
    """A patch applied to one resource."""

    site: PatchSite
    resource: ResourceId
    before: Any
    after: Any
    #: The patch engine's findings (``cfgpatch.kube.explain`` Finding objects).
    findings: list = field(default_factory=list)
    #: The kube schema node of the kind (None: no built-in schema, e.g. a custom resource).
    node: Any = None
    #: The error when the application failed (the build fails with it).
    error: CfgPatchError | None = None


@dataclass
class Outcome:
    """One linted unit."""

    kind: str  # "kustomization" | "flux" | "standalone"
    path: str  # the kustomization file, the Flux object's file, or the patch file
    sites: list[PatchSite] = field(default_factory=list)
    applications: list[Application] = field(default_factory=list)
    #: kustomize's (or kubectl's) error text when the build failed.
    error: str | None = None
    #: Why lint could not follow the unit at all (not kustomize's failure), or None.
    not_followed: str | None = None
    #: Where the error points (the kustomization, or the patch that failed).
    error_location: Location | None = None
    #: What the build refused, as a record (``BuildError.problem``: a
    #: :class:`~cfgpatch.kube.problems.Kustomize` wrapping the problem within), when
    #: ``kube build`` failed; None for other builders' texts.
    error_problem: Any = None
    #: Custom resource definitions known to lint (for naming list keys).
    crds: list = field(default_factory=list)
    #: Who built it: ``kube build`` (kustomize's exact build), or ``lint`` (a standalone patch).
    builder: str = "lint"
    #: What the build could not follow (a remote base, a plugin): the resources may be
    #: incomplete, so ``patch-matches-nothing`` stays silent.
    incomplete: list = field(default_factory=list)
    #: What the build needs that cannot be followed offline (a remote base, a Helm chart
    #: to pull, no helm binary, a plugin) and where: a ``build-incomplete`` note.
    offline: str | None = None
    offline_location: Location | None = None
    #: Further entries the build skipped (each its own note): (reason, where).
    offline_more: list = field(default_factory=list)
    #: The objects the build gives (``kube build``'s output; empty when not built so).
    built: list = field(default_factory=list)
    #: For each of :attr:`built` (when the build was asked for it: ``lint.kbuild``'s
    #: ``keep_blame``), the file and line that last set each field, by JSON pointer.
    blame: list = field(default_factory=list)
    #: A Flux Kustomization's ``namespace/name`` and the line of its name (one file may
    #: hold several); empty for other units.
    unit: str = ""
    unit_line: int = 1
    #: The build options a kustomization was built with (None: not recorded).
    options: Any = None
    #: Why the build is partial, when it is: a Flux Kustomization of another source
    #: built from the folder of the same path here (every finding of the unit says so).
    partial: str = ""
    #: Findings the builder made itself (``lint.flux``'s notes), reported as they are.
    notes: list = field(default_factory=list)
    #: Where a Flux Kustomization's files came from when not from ``spec.path`` here
    #: (an ``ExternalArtifact`` an ``ArtifactGenerator`` of this repository composes).
    source: str = ""
    #: A Flux Kustomization's ``spec.path`` folder (its ``lint.kustomize`` settings).
    target: str = ""

    def summary(self) -> dict:
        return {"kind": self.kind, "path": self.path, "patches": len(self.sites),
                "applications": len(self.applications), "builder": self.builder,
                **({"error": self.error} if self.error else {}),
                **({"incomplete": self.offline} if self.offline else {}),
                **({"partial": self.partial} if self.partial else {}),
                **({"source": self.source} if self.source else {})}


def app_shapes(app: Application) -> Any:
    """The list shapes of the application's kind (None without a schema node)."""
    if app.node is None:
        return None
    from ..kube.schema.node import node_shapes
    return node_shapes(app.node)
