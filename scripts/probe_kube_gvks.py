#!/usr/bin/env python3
"""Ask kubectl 1.27-1.33 which group/version/kinds their schemes can strategic-merge.

``kubectl patch --local --type strategic`` looks a kind up in kubectl's own scheme; a
kind it does not know is refused ("strategic merge patch is not supported for <gv>,
Kind=<kind> locally").  The scheme holds more than the current API: older API versions
that Kubernetes still compiles in (``autoscaling/v2beta2``, ``batch/v1beta1``, ...),
whatever the API package of that release holds.  This script builds the candidates
from each binary and from the fact table, and asks every binary about every candidate:

* every named struct that embeds ``TypeMeta`` in an API package compiled into the binary
  (``k8s.io/api/<dir>/<version>``, read with ``scripts/go_types.py``), under every group
  name that directory can stand for (``<dir>``, ``<dir>.k8s.io``,
  ``<dir>.apiserver.k8s.io``, ``<dir>.authorization.k8s.io``; core is the empty group);
* every row of ``kinds.tsv`` (``../shared/k8s``, the current API), when present;
* :data:`EXTRA`: kinds of API versions Kubernetes has removed, whose packages a binary may
  no longer hold (asked anyway, so that the recording says they are unknown);
* the meta kinds every group version registers (``WatchEvent``, the option kinds, ...);
* every kind name above under two group versions no scheme has
  (``probe.cfgpatch.invalid/v0`` and ``v0``): a kind known there is *unversioned*
  (``Status``, ``APIGroup``, ...: Go's scheme finds those by kind alone, under any
  apiVersion), written with apiVersion ``*``.

Each candidate is an object ``{apiVersion, kind, metadata: {name, labels: {a: b}}}`` and
the patch is ``{"metadata":{"labels":{"c":"d"}}}``; all candidates go to one ``kubectl
patch --local -f`` run per binary (kubectl goes on after an error and prints one error
line per failing object, in order).  Output, ``scripts/data/kubectl-gvks.tsv``: one row per
group/version/kind known to at least one version, with the Go type it was probed as and
each version's answer: ``ok``, kubectl's error (a known kind whose type has no
``metadata.labels``, as the list kinds), or ``-`` (not known to that version).

    python scripts/probe_kube_gvks.py [--bin-dir DIR] [--kinds-tsv ../shared/k8s/kinds.tsv]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from go_types import STRUCT, Binary, TableBuilder  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "scripts" / "data" / "kubectl-gvks.tsv"
VERSIONS = ("1.27", "1.28", "1.29", "1.30", "1.31", "1.32", "1.33")
META_KINDS = ("WatchEvent", "ListOptions", "GetOptions", "DeleteOptions", "CreateOptions",
              "UpdateOptions", "PatchOptions", "Status", "APIVersions", "APIGroup",
              "APIGroupList", "APIResourceList", "Table", "TableOptions",
              "PartialObjectMetadata", "PartialObjectMetadataList", "List")
#: API packages outside k8s.io/api a kubectl binary may compile in: path -> groups (1.27-1.33
#: hold the metrics, clientauthentication, clientcmd and meta ones; none is patchable but
#: meta.k8s.io's Table and PartialObjectMetadata).
OTHER_PACKAGES = {
    "k8s.io/metrics/pkg/apis/metrics/": ("metrics.k8s.io",),
    "k8s.io/client-go/pkg/apis/clientauthentication/": ("client.authentication.k8s.io",),
    "k8s.io/apimachinery/pkg/apis/meta/": ("meta.k8s.io", ""),
    "k8s.io/client-go/tools/clientcmd/api/": ("",),
    "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/": ("apiextensions.k8s.io",),
    "k8s.io/kube-aggregator/pkg/apis/apiregistration/": ("apiregistration.k8s.io",),
}
#: Removed API versions asked about by name (Go type "?" when no binary holds it).
EXTRA = (("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
         ("apiextensions.k8s.io/v1beta1", "CustomResourceDefinition"),
         ("apiregistration.k8s.io/v1", "APIService"),
         ("apiregistration.k8s.io/v1beta1", "APIService"),
         ("batch/v2alpha1", "CronJob"), ("policy/v1beta1", "PodSecurityPolicy"),
         ("extensions/v1beta1", "PodSecurityPolicy"), ("extensions/v1beta1", "NetworkPolicy"),
         ("extensions/v1beta1", "Deployment"), ("apps/v1beta1", "Deployment"),
         ("apps/v1beta2", "Deployment"), ("settings.k8s.io/v1alpha1", "PodPreset"),
         ("scheduling.k8s.io/v1alpha1", "PriorityClass"),
         ("flowcontrol.apiserver.k8s.io/v1alpha1", "FlowSchema"),
         ("node.k8s.io/v1alpha1", "RuntimeClass"), ("storage.k8s.io/v1alpha1", "CSIDriver"),
         ("storage.k8s.io/v1beta1", "CSIStorageCapacity"),
         ("discovery.k8s.io/v1beta1", "EndpointSlice"), ("events.k8s.io/v1beta1", "Event"),
         ("coordination.k8s.io/v1beta1", "Lease"), ("certificates.k8s.io/v1beta1",
                                                     "CertificateSigningRequest"),
         ("admissionregistration.k8s.io/v1beta1", "MutatingWebhookConfiguration"),
         ("rbac.authorization.k8s.io/v1alpha1", "ClusterRole"),
         ("networking.k8s.io/v1beta1", "Ingress"), ("resource.k8s.io/v1alpha2", "ResourceClaim"),
         ("metrics.k8s.io/v1beta1", "PodMetrics"), ("metrics.k8s.io/v1beta1", "NodeMetrics"),
         ("autoscaling/v2beta1", "HorizontalPodAutoscaler"),
         ("autoscaling/v2beta2", "HorizontalPodAutoscaler"))
PATCH = '{"metadata":{"labels":{"c":"d"}}}'
VERSION_RE = re.compile(r"^v\d+((alpha|beta)\d+)?$")
FAKE_VERSIONS = ("probe.cfgpatch.invalid/v0", "v0")
UNSUPPORTED = re.compile(r"strategic merge patch is not supported for (.*), Kind=(.*) locally")


def groups_of(directory: str) -> tuple[str, ...]:
    """The group names an API package directory can stand for."""
    if directory == "core":
        return ("",)
    if directory == "apiserverinternal":
        return ("internal.apiserver.k8s.io",)
    return (directory, f"{directory}.k8s.io", f"{directory}.apiserver.k8s.io",
            f"{directory}.authorization.k8s.io")


def api_version(group: str, version: str) -> str:
    return f"{group}/{version}" if group else version


def binary_candidates(path: str) -> dict[tuple[str, str], str]:
    """(apiVersion, kind) -> Go type key, for every struct embedding TypeMeta."""
    builder = TableBuilder(Binary(path))
    out: dict[tuple[str, str], str] = {}
    for key, go_type in builder.by_key.items():
        if go_type.kind != STRUCT or not any(f.embedded and f.name == "TypeMeta"
                                             for f in go_type.fields):
            continue
        package, name = key.rsplit(".", 1)
        full = go_type.pkg_path
        groups: tuple[str, ...] = ()
        if full.startswith("k8s.io/api/"):
            directory, _, version = package.partition("/")
            groups = groups_of(directory)
        else:
            version = full.rsplit("/", 1)[-1]
            for prefix, named in OTHER_PACKAGES.items():
                if full.startswith(prefix) and full.count("/") == prefix.count("/"):
                    groups = named
            if full == "k8s.io/apimachinery/pkg/apis/meta/v1":
                groups = ("meta.k8s.io", "")
        if not groups or not VERSION_RE.match(version):
            continue
        for group in groups:
            out.setdefault((api_version(group, version), name), key)
    return out


def tsv_candidates(path: Path) -> dict[tuple[str, str], str]:
    if not path.exists():
        return {}
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()
             if not line.startswith("#")]
    return {(row["api_version"], row["kind"]): f"{row['go_package']}.{row['go_type']}"
            for row in csv.DictReader(lines, delimiter="\t")}


def with_meta_kinds(candidates: dict[tuple[str, str], str]) -> dict[tuple[str, str], str]:
    out = dict(candidates)
    for av in sorted({av for av, _ in candidates}):
        for kind in META_KINDS:
            out.setdefault((av, kind), f"meta/v1.{kind}")
    return out


def probe(kubectl: str, candidates: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """Every candidate kubectl knows -> "ok" or its error (unknown ones are left out)."""
    with tempfile.TemporaryDirectory() as folder:
        docs = []
        for index, (av, kind) in enumerate(candidates):
            docs.append(json.dumps({"apiVersion": av, "kind": kind, "metadata": {
                "name": f"o{index}", "labels": {"a": "b"}}}))
        (Path(folder) / "all.json").write_text("\n".join(docs) + "\n", encoding="utf-8")
        proc = subprocess.run([kubectl, "patch", "--local", "-f", "all.json", "--type",
                               "strategic", "-p", PATCH, "-o", "json"], cwd=folder,
                              capture_output=True, text=True, timeout=600)
    decoder = json.JSONDecoder()
    text, at, done = proc.stdout, 0, set()
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            break
        value, at = decoder.raw_decode(text, at)
        labels = value["metadata"]["labels"]
        if labels != {"a": "b", "c": "d"}:
            raise SystemExit(f"unexpected result {value}")
        done.add(int(value["metadata"]["name"][1:]))
    failed = [i for i in range(len(candidates)) if i not in done]
    errors = [line for line in proc.stderr.splitlines() if line.strip()]
    if len(errors) != len(failed):
        raise SystemExit(f"{kubectl}: {len(failed)} failures but {len(errors)} error lines")
    out = {candidates[i]: "ok" for i in done}
    for index, error in zip(failed, errors):
        error = error.removeprefix("error: ")
        refused = UNSUPPORTED.search(error)
        if refused:
            gv = refused.group(1).removeprefix("/")
            if (gv, refused.group(2)) != candidates[index]:
                raise SystemExit(f"error out of order: {error} for {candidates[index]}")
            continue
        out[candidates[index]] = error
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    found = shutil.which("kubectl")
    default_dir = Path(os.path.realpath(found)).parent if found else Path(".")
    parser.add_argument("--bin-dir", type=Path, default=default_dir)
    parser.add_argument("--kinds-tsv", type=Path,
                        default=Path(os.environ.get("CFGPATCH_SHARED", ROOT.parent / "shared"))
                        / "k8s" / "kinds.tsv")
    parser.add_argument("-o", "--output", type=Path, default=OUT)
    args = parser.parse_args(argv)
    binaries = {v: str(args.bin_dir / f"kubectl.{v}") for v in VERSIONS}
    candidates = tsv_candidates(args.kinds_tsv)
    for path in binaries.values():
        for gvk, key in binary_candidates(path).items():
            candidates.setdefault(gvk, key)
    for gvk in EXTRA:
        candidates.setdefault(gvk, "?")
    candidates = with_meta_kinds(candidates)
    names = sorted({kind for _, kind in candidates})
    order = sorted(candidates) + [(fake, kind) for fake in FAKE_VERSIONS for kind in names]
    answers = {}
    git_versions = {}
    for version, path in binaries.items():
        found = probe(path, order)
        unversioned = {kind for kind in names
                       if all((fake, kind) in found for fake in FAKE_VERSIONS)}
        answers[version] = {gvk: answer for gvk, answer in found.items()
                            if gvk[0] not in FAKE_VERSIONS and gvk[1] not in unversioned}
        for kind in unversioned:
            answers[version][("*", kind)] = found[(FAKE_VERSIONS[0], kind)]
            candidates[("*", kind)] = candidates.get(("v1", kind), f"meta/v1.{kind}")
        info = json.loads(subprocess.run([path, "version", "--client", "-o", "json"],
                                         capture_output=True, text=True).stdout)
        git_versions[version] = info["clientVersion"]["gitVersion"]
        print(f"kubectl {git_versions[version]}: {len(answers[version])} known "
              f"of {len(order)} candidates", file=sys.stderr)
    rows = [gvk for gvk in sorted(candidates) if any(gvk in answers[v] for v in VERSIONS)]
    with args.output.open("w", encoding="utf-8") as handle:
        handle.write(f"# kinds kubectl {', '.join(git_versions.values())} know: patch {PATCH} "
                     "on {apiVersion, kind, metadata: {name, labels: {a: b}}}; "
                     "generated by scripts/probe_kube_gvks.py\n")
        handle.write("\t".join(("api_version", "kind", "go_type", *VERSIONS)) + "\n")
        for gvk in rows:
            cells = [answers[v].get(gvk, "-") for v in VERSIONS]
            handle.write("\t".join((*gvk, candidates[gvk], *cells)) + "\n")
    print(f"{len(rows)} group/version/kinds known to at least one version", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
