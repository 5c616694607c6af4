#!/usr/bin/env python3
"""Write kustomization folders of our own around public Helm charts, to measure ``kube
build --enable-helm`` against ``kubectl kustomize --enable-helm`` offline.

Public GitOps repositories that use ``helmCharts:`` mostly name a chart repository
(``repo:``), which needs ``helm pull`` and the network.  This script takes charts as
their authors keep them in git (a chart repository's tree: ``charts/<name>/Chart.yaml``,
for example prometheus-community/helm-charts or grafana/helm-charts, as a checkout or a
bare ``fetch`` mirror) and writes, for every chart that needs no dependency it does not
carry, the folders below, each with its own copy of the chart in its chart home, as a
repository vendors it:

- ``plain``: ``helmCharts`` with ``name`` and ``releaseName`` only;
- ``namespaced``: the release's ``namespace``, ``includeCRDs``, ``skipTests`` and a
  top-level ``namespace:``;
- ``values``: a ``valuesFile`` of our own, ``valuesInline`` (merged over it),
  ``additionalValuesFiles`` and common labels;
- ``versions``: ``apiVersions``, ``kubeVersion``, a ``nameTemplate`` instead of a
  release name, and ``helmGlobals.chartHome`` pointing at a folder of another name;
- ``overlay``: an overlay over ``plain`` (name prefix, labels, annotations, namespace,
  a strategic merge patch on every Deployment and a JSON patch on every Service);
- ``pulled``: ``repo`` and ``version`` given, the chart where kustomize's ``helm pull``
  leaves it (``charts/NAME-VERSION/NAME``, as a repository commits it after a first
  build), ``valuesMerge: replace`` over the chart's values, ``skipHooks``, a
  ``configHome``;
- ``twice``: two releases of the chart in one kustomization, in two namespaces;
- ``apps/dev``, ``apps/prod``: one chart home shared by environments, outside their
  roots (``helmGlobals.chartHome: ../../shared/charts``): ``dev`` with a values file of
  its own and ``valuesInline``, ``prod`` with none (kustomize then reads the chart's
  ``values.yaml`` through the loader, outside the root: its security error).

Charts whose dependencies are not vendored would fail in ``helm template`` alike for both
programs: they are left out.  The charts' files are only copied into ``OUT`` (a scratch
folder): nothing of them belongs in this repository.

Usage:
    scripts/helm_public_corpus.py OUT CHART_REPO ... [--only NAME ...]

then ``scripts/measure_public_build.py OUT`` (it passes ``--enable-helm`` to both).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure_public_build import extract  # noqa: E402

VARIANTS = ("plain", "namespaced", "values", "versions", "overlay", "pulled", "twice",
            "apps/dev", "apps/prod")
API_VERSIONS = ["monitoring.coreos.com/v1", "networking.k8s.io/v1", "policy/v1", "autoscaling/v2"]


def charts_of(tree: Path) -> list[Path]:
    """Chart folders under ``tree`` whose dependencies are all vendored (or none)."""
    out = []
    for chart_file in sorted(tree.glob("**/Chart.yaml")):
        chart = chart_file.parent
        if "charts" in chart.relative_to(tree).parts[:-1][1:]:
            continue  # a sub-chart: built through its parent
        if _dependencies(chart_file) - _vendored(chart):
            continue
        out.append(chart)
    return out


def _dependencies(chart_file: Path) -> set[str]:
    names = set()
    in_deps = False
    for line in chart_file.read_text(encoding="utf-8", errors="replace").splitlines():
        if not line.startswith((" ", "-", "\t")):
            in_deps = line.startswith("dependencies:")
            continue
        stripped = line.strip()
        if in_deps and stripped.startswith(("- name:", "name:")):
            names.add(stripped.split(":", 1)[1].strip().strip("'\""))
    return names


def _vendored(chart: Path) -> set[str]:
    sub = chart / "charts"
    return {p.name for p in sub.iterdir()} if sub.is_dir() else set()


def chart_name(chart: Path) -> str:
    for line in (chart / "Chart.yaml").read_text(encoding="utf-8").splitlines():
        if line.startswith("name:"):
            return line.split(":", 1)[1].strip().strip("'\"")
    return chart.name


def write(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")


def vendor(chart: Path, home: Path) -> None:
    target = home / chart.name
    if not target.exists():
        shutil.copytree(chart, target, symlinks=True)


def flow(value: object) -> str:
    """A value in YAML flow style (JSON is YAML)."""
    return json.dumps(value)


def folders(chart: Path, name: str, out: Path) -> None:
    """The five folders of one chart (see the module docstring)."""
    release = name[:20].rstrip("-")
    base = out / name
    plain = base / "plain"
    write(plain, {"kustomization.yaml": (
        f"helmCharts:\n- name: {chart.name}\n  releaseName: {release}\n")})
    vendor(chart, plain / "charts")

    spaced = base / "namespaced"
    write(spaced, {"kustomization.yaml": (
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n"
        "namespace: observability\n"
        f"helmCharts:\n- name: {chart.name}\n  releaseName: {release}\n"
        "  namespace: observability\n  includeCRDs: true\n  skipTests: true\n")})
    vendor(chart, spaced / "charts")

    values = base / "values"
    write(values, {
        "kustomization.yaml": (
            "labels:\n- pairs:\n    team: platform\n  includeSelectors: false\n"
            f"helmCharts:\n- name: {chart.name}\n  releaseName: {release}\n"
            "  valuesFile: values-prod.yaml\n"
            "  additionalValuesFiles:\n  - values-extra.yaml\n"
            "  valuesInline:\n"
            f"    fullnameOverride: {release}-prod\n"
            "    podAnnotations:\n      example.com/inline: \"yes\"\n"
            "    commonLabels:\n      tier: backend\n"),
        "values-prod.yaml": (
            "replicaCount: 2\n"
            "resources:\n  limits:\n    cpu: 200m\n    memory: 128Mi\n"
            "podAnnotations:\n  example.com/from-file: \"yes\"\n"
            "serviceAccount:\n  create: true\n"),
        "values-extra.yaml": "nodeSelector:\n  kubernetes.io/os: linux\n",
    })
    vendor(chart, values / "charts")

    versions = base / "versions"
    write(versions, {"kustomization.yaml": (
        "helmGlobals:\n  chartHome: vendor\n"
        f"helmCharts:\n- name: {chart.name}\n  nameTemplate: {release}-nt\n"
        "  kubeVersion: \"1.29.0\"\n"
        f"  apiVersions: {flow(API_VERSIONS)}\n")})
    vendor(chart, versions / "vendor")

    write(base / "overlay", {"kustomization.yaml": (
        "resources:\n- ../plain\nnamePrefix: team-\nnamespace: apps\n"
        "commonAnnotations:\n  example.com/owner: team\n"
        "labels:\n- pairs:\n    owner: team\n  includeSelectors: true\n"
        "patches:\n"
        "- target:\n    kind: Deployment\n  patch: |-\n"
        "    apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: any\n"
        "    spec:\n      template:\n        metadata:\n          annotations:\n"
        "            example.com/patched: \"yes\"\n"
        "- target:\n    kind: Service\n  patch: |-\n"
        "    - op: add\n      path: /metadata/labels\n      value:\n        exposed: \"no\"\n")})


def more_folders(chart: Path, name: str, out: Path) -> None:
    """The ``pulled``, ``twice`` and ``apps/*`` folders of one chart."""
    release = name[:20].rstrip("-")
    version = chart_version(chart)
    pulled = out / name / "pulled"
    write(pulled, {"kustomization.yaml": (
        "helmGlobals:\n  configHome: helm-config\n"
        f"helmCharts:\n- name: {chart.name}\n  releaseName: {release}\n"
        f"  repo: https://charts.example.invalid/stable\n  version: {flow(version)}\n"
        "  skipHooks: true\n  valuesMerge: replace\n"
        "  valuesInline:\n    podLabels:\n      pulled: \"yes\"\n")})
    vendor(chart, pulled / "charts" / f"{chart.name}-{version}")

    home = out / name / "shared" / "charts"
    vendor(chart, home)
    for env, files in (("dev", {"values.yaml": "podAnnotations:\n  env: dev\n"}),
                       ("prod", {})):
        write(out / name / "apps" / env, {**files, "kustomization.yaml": (
            f"namespace: {env}\nhelmGlobals:\n  chartHome: ../../shared/charts\n"
            f"helmCharts:\n- name: {chart.name}\n  releaseName: {release}\n"
            f"  namespace: {env}\n"
            + ("  valuesFile: values.yaml\n  valuesInline:\n    fullnameOverride: "
               f"{release}-{env}\n" if files else ""))})

    twice = out / name / "twice"
    write(twice, {"kustomization.yaml": (
        f"helmCharts:\n- name: {chart.name}\n  releaseName: {release}-a\n"
        "  namespace: team-a\n"
        f"- name: {chart.name}\n  releaseName: {release}-b\n  namespace: team-b\n"
        "  valuesInline:\n    nameOverride: second\n")})
    vendor(chart, twice / "charts")


def chart_version(chart: Path) -> str:
    for line in (chart / "Chart.yaml").read_text(encoding="utf-8").splitlines():
        if line.startswith("version:"):
            return line.split(":", 1)[1].strip().strip("'\"")
    return "0.0.0"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("repos", nargs="+", type=Path, metavar="CHART_REPO")
    parser.add_argument("--only", nargs="*", default=None, help="chart names to keep")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/cfgpatch-public"))
    args = parser.parse_args()
    count = 0
    for repo in args.repos:
        tree = repo.resolve()
        if (tree / "HEAD").is_file() and (tree / "objects").is_dir():
            args.workdir.mkdir(parents=True, exist_ok=True)
            tree, _ = extract(tree, args.workdir)
        for chart in charts_of(tree):
            name = chart_name(chart)
            if args.only is not None and name not in args.only:
                continue
            folders(chart, name, args.out)
            more_folders(chart, name, args.out)
            count += 1
    print(f"{count} charts, {count * len(VARIANTS)} folders under {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
