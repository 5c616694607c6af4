"""Helm charts in a build (``helmCharts:``, ``helmGlobals:``, the builtin
HelmChartInflationGenerator), as kustomize v5.5 inflates them: by running the external
``helm`` exactly as kustomize does.

For each chart: ``helm version -c --short`` (a major version other than 3 is refused),
``helm pull`` when the chart is not under the chart home (``charts`` beside the
kustomization unless ``helmGlobals.chartHome``) and a ``repo`` is given, the values file
(the chart's ``values.yaml``, read through the kustomization's loader, so inside its
root unless ``--load-restrictor LoadRestrictionsNone``; with ``valuesInline`` merged
over it, or under it with ``valuesMerge: merge``, or alone with ``replace``) written to a
temporary folder, then ``helm template`` with kustomize's arguments, its output read as
the chart's resources.  The environment gives helm a home of its own
(``HELM_CONFIG_HOME``, ``HELM_CACHE_HOME``, ``HELM_DATA_HOME``).

Running a process is not part of the core (it runs in the browser too): a
:class:`HelmProcess` does it, given to :func:`~.build.build` or installed once by the
command line (:func:`install_runner`).  Without one, helm cannot be run: kustomize's
error for a missing binary.
"""

from __future__ import annotations

import json
import posixpath

from ...errors import KUSTOMIZE_ERROR, KubeError
from ...lazy_pattern import lazily
from ..io.kyaml_write import write_value
from ..problems import Kustomize, ProblemError, cause
from .helm_options import HelmOptions
from .kustomization import Kustomization
from .resources import Resource, read_resources

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

DEFAULT_HOME = "charts"
_MERGES = ("merge", "override", "replace")
_VERSION = lazily(r"v?\d+(\.\d+)+")


def configure_charts(kust: Kustomization, options: HelmOptions) -> list[Chart]:
    """The charts of ``helmCharts:`` with ``helmGlobals:``, configured (kustomize's
    ``trouble configuring builtin HelmChartInflationGenerator`` errors)."""
    globals_ = kust.get("helmGlobals") or {}
    charts = []
    for chart in kust.get("helmCharts") or []:
        args = _args(chart if isinstance(chart, dict) else {}, globals_)
        try:
            charts.append(configure(kust, args, options))
        except KubeError as err:
            from .replacements import omit_empty  # only for this error's text

            text = write_value(omit_empty(args))
            raise ProblemError(Kustomize("configuring-builtin", name="HelmChartInflationGenerator",
                                         detail=text, cause=cause(err)),
                               code=err.code) from None
    return charts


def _args(chart: dict, globals_: Any) -> dict:
    globals_ = globals_ if isinstance(globals_, dict) else {}
    return {**{k: v for k, v in globals_.items() if v is not None},
            **{k: v for k, v in chart.items() if v is not None}}


def configure(kust: Kustomization, args: dict, options: HelmOptions) -> Chart:
    """One chart (its ``helmGlobals`` fields included) configured as kustomize's plugin
    does (its errors)."""
    if not options.enabled:
        raise ProblemError(Kustomize("helm-not-enabled"), code=KUSTOMIZE_ERROR)
    if not options.command:
        raise ProblemError(Kustomize("no-helm-command"), code=KUSTOMIZE_ERROR)
    args = dict(args)
    if options.kube_version:
        args["kubeVersion"] = options.kube_version
    if options.api_versions:
        args["apiVersions"] = list(options.api_versions)
    if options.debug:
        args["debug"] = True
    if not args.get("name"):
        raise ProblemError(Kustomize("no-chart-name"), code=KUSTOMIZE_ERROR)
    made = Chart(kust, args, options)
    made.validate()
    return made


class Chart:
    """One configured chart (kustomize's HelmChartInflationGeneratorPlugin)."""

    def __init__(self, kust: Kustomization, args: dict, options: HelmOptions) -> None:
        self.kust, self.args, self.options = kust, args, options
        self.process = options.process()
        self.tmp = ""
        self.env: dict[str, str] = {}

    def _str(self, key: str) -> str:
        value = self.args.get(key)
        return "" if value is None else str(value)

    def home(self) -> str:
        home = self._str("chartHome") or DEFAULT_HOME
        if not home.startswith("/"):
            home = posixpath.join(self.kust.loader.root, home)
        if self._str("version") and self._str("repo"):
            home = posixpath.join(home, f"{self._str('name')}-{self._str('version')}")
        return posixpath.normpath(home)

    def validate(self) -> None:
        if not self._str("valuesFile"):
            self.args["valuesFile"] = posixpath.join(self.home(), self._str("name"),
                                                     "values.yaml")
        extra = []
        for path in self.args.get("additionalValuesFiles") or []:
            try:
                self.kust.loader.read_bytes(str(path))
            except KubeError as err:
                raise ProblemError(Kustomize("additional-values-file", cause=cause(err)),
                                   code=err.code) from None
            extra.append(posixpath.join(self.kust.loader.root, str(path)))
        self.args["additionalValuesFiles"] = extra
        merge = self._str("valuesMerge")
        if merge and merge not in _MERGES:
            raise ProblemError(Kustomize("values-merge", detail=" ".join(_MERGES)),
                               code=KUSTOMIZE_ERROR)
        self.args["valuesMerge"] = merge or "override"
        home = self._str("configHome")
        if not home:
            self.tmp = self._temp()
            home = posixpath.join(self.tmp, "helm")
        self.env = {"HELM_CONFIG_HOME": home, "HELM_CACHE_HOME": f"{home}/.cache",
                    "HELM_DATA_HOME": f"{home}/.data"}

    def _temp(self) -> str:
        return self.process.make_temp_dir() if self.process is not None else "/tmp/kustomize-helm"

    # --- generating -----------------------------------------------------------------

    def generate(self) -> list[Resource]:
        try:
            return self._generate()
        finally:
            if self.tmp and self.process is not None:
                self.process.remove_tree(self.tmp)

    def _generate(self) -> list[Resource]:
        self._check_version()
        chart = posixpath.join(self.home(), self._str("name"))
        if not self.kust.loader.fs.is_dir(chart):
            if not self._str("repo"):
                raise ProblemError(Kustomize("no-chart-repo"), code=KUSTOMIZE_ERROR)
            self._run(self._pull_args())
        values = self._values()
        if not self.tmp:
            self.tmp = self._temp()
        path = posixpath.join(self.tmp, f"{self._str('name')}-kustomize-values.yaml")
        if self.process is not None:
            self.process.write_file(path, values)
        self.args["valuesFile"] = path
        out = self._run(self.template_args())
        return read_resources(out.decode("utf-8", "surrogateescape"), "helm template")

    def _check_version(self) -> None:
        out = self._run(["version", "-c", "--short"]).decode("utf-8", "replace")
        found = _VERSION.search(out)
        if found is None:
            raise ProblemError(Kustomize("no-helm-version", detail=out), code=KUSTOMIZE_ERROR)
        version = found.group().lstrip("v")
        if version.split(".")[0] != "3":
            raise ProblemError(Kustomize("helm-not-v3", detail=version), code=KUSTOMIZE_ERROR)

    def _values(self) -> bytes:
        inline = self.args.get("valuesInline")
        if not isinstance(inline, dict) or not inline:
            return self.kust.loader.read_bytes(self._str("valuesFile"))[0]
        if self.args["valuesMerge"] != "replace":
            text, _ = self.kust.loader.read(self._str("valuesFile"))
            chart = _values_map(text)
            if self.args["valuesMerge"] == "override":
                inline = merged(inline, chart)
            else:
                inline = merged(chart, inline)
        return (json.dumps(inline, sort_keys=True, ensure_ascii=False) + "\n").encode()

    def _pull_args(self) -> list[str]:
        args = ["pull", "--untar", "--untardir", self.home()]
        repo, name = self._str("repo"), self._str("name")
        if repo.startswith("oci://"):
            args.append(repo.rstrip("/") + "/" + name)
        else:
            args += ["--repo", repo, name]
        if self._str("version"):
            args += ["--version", self._str("version")]
        return args

    def template_args(self) -> list[str]:
        """kustomize's ``helm template`` arguments."""
        args = ["template"]
        release = self._str("releaseName")
        args += [release] if release else ["--generate-name"]
        args.append(posixpath.join(self.home(), self._str("name")))
        for key, flag in (("namespace", "--namespace"), ("nameTemplate", "--name-template"),
                          ("valuesFile", "-f")):
            if self._str(key):
                args += [flag, self._str(key)]
        for path in self.args.get("additionalValuesFiles") or []:
            args += ["-f", path]
        for version in self.args.get("apiVersions") or []:
            args += ["--api-versions", str(version)]
        if self._str("kubeVersion"):
            args += ["--kube-version", self._str("kubeVersion")]
        for key, flag in (("includeCRDs", "--include-crds"), ("skipTests", "--skip-tests"),
                          ("skipHooks", "--no-hooks"), ("debug", "--debug")):
            if self.args.get(key) is True:
                args.append(flag)
        return args

    def _run(self, args: list[str]) -> bytes:
        command = self.options.command
        err: bytes | None = None  # no process: the command is not there
        if self.process is None:
            code, out = -1, b""
        else:
            code, out, err = self.process.run(command, args, self.env)
        if code == 0:
            return out
        env = " ".join(f"{k}={v}" for k, v in self.env.items())
        stderr = None if err is None else err.decode("utf-8", "replace")
        raise ProblemError(Kustomize("helm-failed", path=command, name=" ".join(args), detail=(
            stderr, out.decode("utf-8", "replace"), env, code, "--debug" in args)),
            code=KUSTOMIZE_ERROR)


def merged(src: Any, dest: Any) -> Any:
    """kyaml's merge of ``src`` into ``dest`` without a schema, as far as values files
    use it: maps merge key by key, ``src`` wins elsewhere (lists are replaced), a null
    in ``src`` removes the key."""
    if not isinstance(src, dict) or not isinstance(dest, dict):
        return src
    out = dict(dest)
    for key, value in src.items():
        if value is None:
            out.pop(key, None)
        else:
            out[key] = merged(value, dest.get(key))
    return out


def _values_map(text: str) -> dict:
    from ..io.kyaml_read import read_first_document
    from .kustomization import v2_value
    node = read_first_document(text, "values.yaml")
    value: Any = v2_value(node) if node is not None else {}
    return value if isinstance(value, dict) else {}
