"""``kube build``: a kustomization directory built exactly as ``kubectl kustomize`` (v5.5).

For one kustomization kustomize runs, in this order: its ``resources`` (files, and
directories built recursively, each on its own), its generators, its ``components``
(built on top of what is accumulated so far), then its transformers:
``patchesStrategicMerge``, ``patches``, ``namespace``, ``namePrefix``, ``nameSuffix``,
``labels`` then ``commonLabels``, ``commonAnnotations``, ``patchesJson6902``,
``replicas``, ``images``, ``replacements`` (:mod:`.replacements`).  Once, at the very
end of the whole build: the hash suffixes of generated ConfigMaps and Secrets, the name
references (:mod:`.nameref`), dropping
``config.kubernetes.io/local-config: "true"`` resources, and kustomize's output order
(:func:`.resources.legacy_sort`, or ``sortOptions``).

Errors are :class:`~cfgpatch.kube.problems.Kustomize` records, wrapped as kustomize
wraps them (``accumulating-resources`` around ``accumulation`` around ...), which
``compat.kustomize`` words as kustomize does (``accumulating resources: accumulation
err='...': ...``); :class:`BuildError` keeps the record (``problem``) and the warnings
printed before the failure.
"""

from __future__ import annotations

import functools
import posixpath

from ...errors import KUSTOMIZE_ERROR, KUSTOMIZE_UNMODELLED, KubeError
from ...records import dataclass, field
from ..go import json as gojson
from ..problems import Kustomize, ProblemError, cause
from . import finish, generators, nameref
from .filesys import FileSystem
from .helm_options import HelmOptions, HelmProcess
from .kustomization import (
    MANAGED_BY_LABEL,
    Kustomization,
    load,
)
from .loader import ROOT_ONLY, Loader, LoaderError, is_remote
from .openapi import SchemaState
from .resmap import ResMap
from .resources import (
    Resource,
    annotate_origin,
    read_resources,
)
from .styles import plain, stringify_annotations
from .transformer_config import TransformerConfig, load_configurations, merged_into

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .plugins import Plugin
    from .trace import Trace  # imported by the caller that explains

# The modules of what only some kustomizations use (patches, images, replacements, vars,
# plugins, partial builds) are imported where a kustomization asks for them: a small
# build starts without them.

LOCAL_CONFIG = "config.kubernetes.io/local-config"


class BuildError(KubeError):
    """kustomize refused the build: ``message`` is kustomize's text, ``problem`` what
    was refused (a :class:`~cfgpatch.kube.problems.Kustomize` record or another record
    of :mod:`cfgpatch.kube.problems`; the message itself when cfgpatch does not model
    the build); ``warnings`` were printed before the error."""

    default_code = KUSTOMIZE_ERROR

    def __init__(self, message: str, *, warnings: list[str] = (),  # type: ignore[assignment]
                 problem: Any = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.warnings = list(warnings)
        self.problem = message if problem is None else problem


@dataclass
class BuildResult:
    resources: list[Resource]
    warnings: list[str] = field(default_factory=list)
    trace: Trace | None = None

    def yaml(self) -> str:
        """The output of ``kubectl kustomize``."""
        from ..io.kyaml_write import write_value  # (lint builds and prints nothing)

        return "---\n".join(write_value(r.value) for r in self.resources)

    def json(self) -> str:
        """The resources as a ``v1`` List, in Go's indented JSON."""
        items = [plain(r.value) for r in self.resources]
        return gojson.encode({"apiVersion": "v1", "items": items, "kind": "List"}, "    ") + "\n"


def build(directory: str, trace: Trace | None = None, fs: FileSystem | None = None, *,
          load_restrictor: str = ROOT_ONLY, enable_helm: bool = False,
          helm_command: str = "helm", helm_api_versions: tuple[str, ...] = (),
          helm_kube_version: str = "", helm_debug: bool = False,
          helm_runner: HelmProcess | None = None) -> BuildResult:
    """Build ``directory`` (see the module docstring); raises :class:`BuildError`.

    Every file is read through ``fs`` (:mod:`.filesys`; the disk when None), so a tree
    held in memory builds as the same tree on disk does, with the same messages.
    ``load_restrictor``: ``LoadRestrictionsNone`` lets every kustomization read files
    outside its directory (``kubectl kustomize --load-restrictor``).  The ``helm_*``
    parameters are ``kubectl kustomize``'s ``--enable-helm``, ``--helm-command``,
    ``--helm-api-versions``, ``--helm-kube-version`` and ``--helm-debug``; helm runs
    through ``helm_runner`` (:mod:`.helm`; by default the one the command line installs)."""
    warnings: list[str] = []
    try:
        loader = Loader.at(directory, fs, load_restrictor)
        target = _Target(loader, trace, warnings, SchemaState())
        target.helm = HelmOptions(enable_helm, helm_command, tuple(helm_api_versions),
                                  helm_kube_version, helm_debug, helm_runner)
        kust = target.load()
        metadata = kust.get("buildMetadata") or []
        if metadata:  # any option: kustomize tracks both during the build (measured)
            target.origin_dir = ""
        target.state.set_from(kust, reset=True)
        resmap = target.accumulate(kust, ResMap())
        generators.add_hashes(resmap, trace)
        nameref.fix_references(resmap, trace)
        if resmap.vars:
            from . import variables

            variables.resolve_vars(resmap, warnings, trace)
        for resource in resmap.resources:
            finish.untracked(resource, metadata)
            stringify_annotations(resource.value)
        if MANAGED_BY_LABEL in metadata:
            finish.label_managed_by(resmap)
        kept = [r for r in resmap.resources if str(r.annotations().get(LOCAL_CONFIG)) != "true"]
        ordered = finish.order(kust, kept)
        finish.check_printable(ordered)
    except KubeError as err:
        raise BuildError(err.message, warnings=warnings, code=err.code, hint=err.hint,
                         problem=cause(err)) from None
    except RecursionError:
        raise too_deep(warnings) from None
    return BuildResult(ordered, warnings, trace)


def too_deep(warnings: list[str] = ()) -> BuildError:  # type: ignore[assignment]
    """The build of a tree nested beyond Python's recursion limit: not modelled (kustomize
    reads up to go-yaml's own limit)."""
    return BuildError("a document is nested too deeply for cfgpatch kube build",
                      warnings=warnings, code=KUSTOMIZE_UNMODELLED,
                      hint="cfgpatch follows a few hundred levels of nesting; build this "
                           "tree with kubectl kustomize")


def _wrap(step: str, err: KubeError, path: str | None = None) -> KubeError:
    """``err`` within kustomize's ``step`` (a code of :class:`Kustomize`) of ``path``."""
    if err.code == KUSTOMIZE_UNMODELLED:
        return err
    wrapped = ProblemError(Kustomize(step, path=path, cause=cause(err)), code=err.code,
                           hint=err.hint)
    wrapped.malformed = getattr(err, "malformed", False)  # type: ignore[attr-defined]
    return wrapped


class _Target:
    """One kustomization being built (kustomize's KustTarget)."""

    def __init__(self, loader: Loader, trace: Trace | None, warnings: list[str],
                 state: SchemaState, origin_dir: str | None = None) -> None:
        self.loader, self.trace, self.warnings = loader, trace, warnings
        self.state = state
        #: With a ``buildMetadata`` option at the top: this kustomization's directory as
        #: the paths from the top spell it; origins and transformer runs are recorded
        #: (None: they are not).
        self.origin_dir = origin_dir
        self.helm = HelmOptions()

    def origin_of(self, path: str) -> str | None:
        """``path`` (as this kustomization writes it) as an origin names it: joined to
        the directories above it as they were written, then cleaned (Go's
        ``filepath.Join``); None without a ``buildMetadata`` option at the top."""
        if self.origin_dir is None:
            return None
        return posixpath.normpath(posixpath.join(self.origin_dir, path))

    def load(self) -> Kustomization:
        kust = load(self.loader)
        self.warnings.extend(kust.warnings)
        return kust

    def accumulate(self, kust: Kustomization, resmap: ResMap) -> ResMap:
        try:
            resmap = self._resources(kust, resmap)
        except KubeError as err:
            raise _wrap("accumulating-resources", err) from None
        configured = load_configurations(kust)  # kustomize: before crds:, errors unwrapped
        if configured is None:
            configured = TransformerConfig.default()
        resmap.config = merged_into(merged_into(resmap.config, _crds(kust)), configured)
        charts = _charts(kust, self.helm)
        generators.run_generators(resmap, self.trace, kust,
                                  self.origin_of(posixpath.basename(kust.file)))
        for chart in charts:
            from . import partial

            made: list[Resource] = partial.run_or_skip(chart.generate, kust.where("/helmCharts"),
                                                       "helmCharts", [])
            generators.absorb_all(resmap, made)
        for plugin in self._plugins(kust, "generators"):
            from . import partial

            partial.run_or_skip(functools.partial(plugin, resmap), kust.where("/generators"),
                                "generators", None)
        try:
            resmap = self._components(kust, resmap)
        except KubeError as err:
            raise _wrap("accumulating-components", err) from None
        self._transform(kust, resmap)
        self._validate(kust, resmap)
        if kust.get("vars"):
            from . import variables

            variables.merge_vars(resmap, kust)
        return resmap

    # --- plugins given as configuration -------------------------------------------------

    def _plugins(self, kust: Kustomization, field_name: str) -> list[Plugin]:
        """The built-in plugins configured by ``kust``'s ``field_name`` entries."""
        if not kust.get(field_name):
            return []
        from . import plugins

        return plugins.configured(kust, field_name, self._resources,
                                  self.origin_of(posixpath.basename(kust.file)),
                                  self.trace, self.state, self.helm)

    def _validate(self, kust: Kustomization, resmap: ResMap) -> None:
        """``validators``: transformers that must change nothing."""
        for plugin in self._plugins(kust, "validators"):
            from . import plugins

            plugins.validate(plugin, resmap)

    # --- resources --------------------------------------------------------------------

    def _resources(self, kust: Kustomization, resmap: ResMap) -> ResMap:
        for index, path in enumerate(kust.get("resources", [])):
            if not isinstance(path, str):
                raise KubeError(f"{kust.where(f'/resources/{index}')}: a resource is a path",
                                code=KUSTOMIZE_ERROR)
            try:
                self._file(resmap, path)
                continue
            except KubeError as err:
                if err.code == KUSTOMIZE_UNMODELLED:
                    raise
                file_error = err
            if is_remote(path):
                from . import partial

                if partial.skip(kust.where(f"/resources/{index}"), path, "a remote resource "
                                "(kustomize fetches it)"):
                    continue
                raise KubeError(f"{kust.where(f'/resources/{index}')}: remote resource "
                                f"'{path}' is not modelled by cfgpatch kube build",
                                code=KUSTOMIZE_UNMODELLED)
            try:
                sub = self.loader.new(path)
            except LoaderError as err:
                if getattr(file_error, "malformed", False):
                    raise file_error from None
                raise ProblemError(Kustomize("accumulation", detail=cause(file_error),
                                             cause=cause(err)), code=KUSTOMIZE_ERROR) from None
            try:
                resmap = self._directory(resmap, sub, component=False, path=path)
            except KubeError as err:
                if err.code == KUSTOMIZE_UNMODELLED:
                    raise
                wrapped = ProblemError(Kustomize("accumulation", detail=cause(file_error),
                                                 cause=cause(err)), code=err.code, hint=err.hint)
                wrapped.malformed = getattr(err, "malformed", False)  # type: ignore[attr-defined]
                raise wrapped from None
        return resmap

    def _file(self, resmap: ResMap, path: str) -> None:
        try:
            text, real = self.loader.read(path)
            found = read_resources(text, real)
            for resource in found:
                self.state.uses_type(resource.value.get("apiVersion"), resource.value.get("kind"))
            origin = self.origin_of(path)
            if origin is not None:
                for resource in found:
                    annotate_origin(resource, {"path": origin})
        except KubeError as err:
            step = "resources-from-file" if getattr(err, "in_file", False) else "resources-from"
            wrapped = ProblemError(Kustomize(step, path=path, cause=cause(err)), code=err.code)
            # (KubeError has no such field: an attribute of this error, read back above)
            wrapped.malformed = (  # type: ignore[attr-defined]
                not isinstance(err, LoaderError) and getattr(err, "malformed", True))
            raise wrapped from None
        try:
            resmap.append_all(found)
        except KubeError as err:
            raise ProblemError(Kustomize("merging-resources-from", path=path, cause=cause(err)),
                               code=err.code) from None

    def _directory(self, resmap: ResMap, loader: Loader, component: bool, path: str) -> ResMap:
        sub = _Target(loader, self.trace, self.warnings, self.state, self.origin_of(path))
        sub.helm = self.helm
        try:
            kust = sub.load()
        except KubeError as err:
            raise _wrap("make-target", err, loader.root) from None
        self.state.set_from(kust, reset=False)
        if component and not kust.is_component:
            raise ProblemError(Kustomize("expected-component", path=loader.root, name=kust.kind),
                               code=KUSTOMIZE_ERROR)
        if not component and kust.is_component:
            raise ProblemError(Kustomize("unexpected-component", path=loader.root),
                               code=KUSTOMIZE_ERROR)
        try:
            if component:
                built = sub.accumulate(kust, resmap)
                resmap = ResMap()
                resmap.config, resmap.vars = built.config, built.vars
            else:
                built = sub.accumulate(kust, ResMap())
        except KubeError as err:
            raise _wrap("recursed-accumulation", err, loader.root) from None
        try:
            resmap.append_all(built.resources)
            if built.config is not resmap.config:
                resmap.config = merged_into(resmap.config, built.config)
            if built.vars is not resmap.vars and built.vars:
                from . import variables

                variables.merge_var_sets(resmap, built)
        except KubeError as err:
            raise _wrap("recursed-merging", err, loader.root) from None
        return resmap

    def _components(self, kust: Kustomization, resmap: ResMap) -> ResMap:
        for index, path in enumerate(kust.get("components", [])):
            path = str(path)
            if is_remote(path):
                from . import partial

                if partial.skip(kust.where(f"/components/{index}"), path,
                                "a remote component (kustomize fetches it)"):
                    continue
                raise KubeError(f"{kust.file}: remote component '{path}' is not modelled by "
                                f"cfgpatch kube build", code=KUSTOMIZE_UNMODELLED)
            try:
                loader = self.loader.new(path)
            except LoaderError as err:
                raise ProblemError(Kustomize("loader-new", cause=cause(err)),
                                   code=KUSTOMIZE_ERROR) from None
            try:
                resmap = self._directory(resmap, loader, component=True, path=path)
            except KubeError as err:
                if err.code == KUSTOMIZE_UNMODELLED:
                    raise
                raise ProblemError(Kustomize("accumulate-directory", cause=cause(err)),
                                   code=err.code) from None
        return resmap

    def _transform(self, kust: Kustomization, resmap: ResMap) -> None:
        from .transform_order import transform

        transform(self, kust, resmap)


def _crds(kust: Kustomization) -> TransformerConfig:
    """The configuration of ``crds:`` (its module imported only when there is one)."""
    if not kust.get("crds"):
        return TransformerConfig()
    from .crds import load_crds

    return load_crds(kust)


def _charts(kust: Kustomization, options: HelmOptions) -> list:
    """The configured charts of ``helmCharts:`` (:mod:`.helm` imported only for them)."""
    if not kust.get("helmCharts"):
        return []
    from . import helm

    return helm.configure_charts(kust, options)
