"""The inputs of the recorded ``kubectl apply`` cases of files of several objects.

Each case is a dict: ``id``; ``live``, the objects the fake API server holds;
``manifest``, the text of the ``-f`` file (``name`` is its file name, default
``manifest.yaml``), or ``files`` (relative path -> text) and ``args`` (the ``-f``
arguments over them); ``flags``, extra kubectl flags; ``kinds``, the (apiVersion, kind)
pairs discovery lists besides the live objects' (so kubectl can map every object the
file names).  ``record_kube_apply_many.py`` runs them.

The fake server does not change what it serves after a PATCH or a POST, so no case
applies the same object twice (a real server would show the second its first apply's
result, which is what ``kube apply`` models; ``tests/test_cli_kube_apply.py`` checks it).
"""

from __future__ import annotations

import copy
import json

import yaml
from kube_apply_cases import annotate, deploy

KINDS = [("apps/v1", "Deployment"), ("v1", "ConfigMap"), ("v1", "Service"),
         ("v1", "Namespace"), ("example.com/v1", "Widget")]


def config_map(name: str, data: dict, namespace: str | None = "default") -> dict:
    metadata: dict = {"name": name}
    if namespace is not None:
        metadata["namespace"] = namespace
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": data}


def elsewhere(name: str) -> dict:
    """A ConfigMap in the namespace ``other`` (refused with ``-n default``)."""
    return config_map(name, {"k": "1"}, "other")


def applied(obj: dict) -> dict:
    """``obj`` as the cluster holds it after ``kubectl apply`` of itself."""
    return annotate(obj, obj)


def yaml_documents(*docs: dict | str) -> str:
    """A YAML file of the documents in block style (a string is written as it is)."""
    return "---\n".join(doc if isinstance(doc, str) else yaml.safe_dump(doc, sort_keys=False)
                        for doc in docs)


def inputs_of(case: dict) -> tuple[dict[str, str], list[str]]:
    """The files of a case and the ``-f`` arguments naming them."""
    if "files" in case:
        return case["files"], case["args"]
    name = case.get("name", "manifest.yaml")
    return {name: case["manifest"]}, ["-f", name]


def _files_case(case_id: str, live: list[dict], files: dict[str, str], args: list[str],
                *flags: str) -> dict:
    return {"id": case_id, "live": live, "files": files, "args": args, "flags": list(flags),
            "kinds": KINDS}


def _case(case_id: str, live: list[dict], manifest: str, *flags: str, **extra) -> dict:
    return {"id": case_id, "live": live, "manifest": manifest, "flags": list(flags),
            "kinds": KINDS, **extra}


def _cases() -> list[dict]:
    web3, web4 = deploy(3), deploy(4)
    a1, a2 = config_map("a", {"x": "1"}), config_map("a", {"x": "2"})
    b2 = config_map("b", {"q": "2"})
    hand_edited_a = annotate(config_map("a", {"x": "manual"}), a1)
    scaled = annotate(deploy(5), web3)
    no_kind = {"apiVersion": "v1", "metadata": {"name": "q"}}
    no_kind_r = {"apiVersion": "v1", "metadata": {"name": "r"}}
    no_version = {"kind": "ConfigMap", "metadata": {"name": "r"}, "data": {"k": "v"}}
    service = {"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"},
               "spec": {"selector": {"app": "web"},
                        "ports": [{"port": 80, "targetPort": 8080, "protocol": "TCP"}]}}
    service2 = copy.deepcopy(service)
    service2["spec"]["ports"].append({"name": "tls", "port": 443, "protocol": "TCP"})
    service2["spec"]["ports"][0]["name"] = "http"
    team = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "team"}}
    team2 = {**team, "metadata": {"name": "team", "labels": {"env": "prod"}}}
    widget = {"apiVersion": "example.com/v1", "kind": "Widget",
              "metadata": {"name": "w", "namespace": "default"},
              "spec": {"size": 1, "tags": ["a"]}}
    widget2 = {**widget, "spec": {"tags": ["a", "b"]}}
    live = [applied(web3), applied(a1)]
    cases = [
        _case("configured-unchanged-created", live, yaml_documents(web4, a1, b2)),
        _case("list-of-items", live, json.dumps(
            {"apiVersion": "v1", "kind": "List", "items": [b2, a2]}, indent=2)),
        # 1.27 and 1.32 read a file whose first character is "{" as a JSON stream (and
        # fail at the "---"); 1.33 reads it as YAML
        _case("json-first-document-then-yaml", live,
              json.dumps(web4) + "\n---\n" + yaml_documents(a1, b2)),
        _case("json-stream", live, json.dumps(web4) + "\n" + json.dumps(a2) + "\n",
              name="manifest.json"),
        _case("json-stream-bad-second-value", live, json.dumps(web4) + "\n{\"kind\": \n",
              name="manifest.json"),
        _case("decode-error-then-conflict", [applied(web3), hand_edited_a],
              yaml_documents(b2, a2, no_kind, config_map("d", {"q": "1"})),
              "--overwrite=false"),
        _case("two-conflicts", [scaled, hand_edited_a], yaml_documents(web4, a2),
              "--overwrite=false"),
        _case("two-decode-errors-and-a-conflict", [hand_edited_a],
              yaml_documents(a2, no_kind, {"apiVersion": "v1", "metadata": {"name": "s"}}),
              "--overwrite=false"),
        _case("two-decode-errors-only", live, yaml_documents(no_kind, {"metadata": {}})),
        _case("object-without-api-version-is-created", live, yaml_documents(no_version, a2)),
        _case("yaml-error-stops-the-reading", live,
              yaml_documents(b2, a2, "a: [\n", config_map("d", {"q": "1"}))),
        _case("namespace-other-than-n", live,
              yaml_documents(config_map("b", {"q": "2"}, "other"), a2), "-n", "default"),
        _case("namespace-other-than-n-and-a-conflict", [hand_edited_a],
              yaml_documents(a2, config_map("b", {"q": "2"}, "other")),
              "-n", "default", "--overwrite=false"),
        _case("namespace-from-n", [applied(config_map("a", {"x": "1"}, "team"))],
              yaml_documents(config_map("a", {"x": "2"}, None),
                             config_map("b", {"q": "2"}, None)), "-n", "team"),
        _case("empty-file", live, ""),
        _case("only-separators-and-comments", live, "---\n# nothing here\n---\n"),
        _case("cluster-scoped-and-namespaced", [team, applied(service)],
              yaml_documents(team2, service2)),
        _case("missing-annotation-warnings", [web3, a1], yaml_documents(web4, a2)),
        _case("custom-resource-among-built-ins", [applied(widget), applied(a1)],
              yaml_documents(widget2, a2, b2)),
        _case("list-with-an-item-without-kind", live, json.dumps(
            {"apiVersion": "v1", "kind": "List", "items": [b2, no_kind, a2]})),
        # kubectl gathers the namespace errors one by one and the documents it cannot
        # read as one group after them, whatever the documents' order
        _case("namespace-errors-before-decode-errors", live,
              yaml_documents(no_kind, elsewhere("z1")), "-n", "default"),
        _case("same-decode-error-twice-and-a-namespace-error", live,
              yaml_documents(no_kind, no_kind, elsewhere("z1")), "-n", "default"),
        _case("namespace-and-decode-errors-and-a-conflict", [hand_edited_a],
              yaml_documents(no_kind, no_kind_r, elsewhere("z1"), elsewhere("z2"), a2),
              "-n", "default", "--overwrite=false"),
        _case("namespace-error-then-yaml-error", live,
              yaml_documents(elsewhere("z1"), "a: [\n"), "-n", "default"),
        *_folder_cases(live, hand_edited_a, no_kind, no_kind_r),
    ]
    return cases


def _folder_cases(live: list[dict], hand_edited_a: dict, no_kind: dict, no_kind_r: dict
                  ) -> list[dict]:
    """Directories, several -f flags and comma-separated paths."""
    folder = {"m/b.yaml": yaml_documents(elsewhere("z1"), config_map("b", {"k": "1"})),
              "m/a.yaml": yaml_documents(config_map("a", {"k": "2"}), no_kind),
              "m/c.txt": yaml_documents(config_map("c", {"k": "1"})),
              "m/sub/d.yaml": yaml_documents(config_map("d", {"k": "1"})),
              "m/e.json": json.dumps(config_map("e", {"k": "1"})),
              "m/f.YAML": yaml_documents(config_map("f", {"k": "1"}))}
    broken = {"m/a.yaml": yaml_documents(config_map("a", {"k": "2"}), "a: [\n",
                                         config_map("a2", {"k": "2"})),
              "m/b.yaml": yaml_documents(no_kind, config_map("b", {"k": "1"}), no_kind_r),
              "m/c.yaml": yaml_documents(elsewhere("z1"), config_map("a", {"x": "2"}))}
    only_errors = {"m/a.yaml": yaml_documents(no_kind, no_kind_r),
                   "m/b.yaml": yaml_documents(no_kind_r, no_kind)}
    n = ("-n", "default")
    return [
        _files_case("directory", live, folder, ["-f", "m"], *n),
        _files_case("directory-recursive", live, folder, ["-f", "m", "-R"], *n),
        _files_case("directory-with-slash-and-dot", live, folder, ["-f", "./m/"], *n),
        _files_case("two-f-flags", live, folder, ["-f", "m/b.yaml", "-f", "m/a.yaml"], *n),
        _files_case("comma-separated-paths", live, folder, ["-f", "m/b.yaml,m/e.json"], *n),
        _files_case("explicit-file-of-any-extension", live, folder, ["-f", "m/c.txt"]),
        _files_case("a-path-that-does-not-exist", live, folder,
                    ["-f", "m/a.yaml", "-f", "nope.yaml"]),
        _files_case("two-paths-that-do-not-exist", live, folder,
                    ["-f", "nope.yaml", "-f", "m", "-f", "nope2.yaml"]),
        _files_case("a-file-that-stops-parsing-and-a-conflict", [hand_edited_a], broken,
                    ["-f", "m"], *n, "--overwrite=false"),
        _files_case("reading-errors-of-two-files", live, only_errors, ["-f", "m"]),
        _files_case("directory-without-manifests", live, {"m/x.txt": "hello\n"}, ["-f", "m"]),
        _files_case("directory-of-empty-files", live, {"m/x.yaml": "", "m/y.json": ""},
                    ["-f", "m"]),
        *_kustomize_cases(),
        *_dry_run_cases(live, hand_edited_a, no_kind),
    ]


def _dry_run_cases(live: list[dict], hand_edited_a: dict, no_kind: dict) -> list[dict]:
    """``--dry-run``: client (no patch computed, nothing sent), server (sent, not kept)."""
    bare = config_map("c", {"k": "1"})
    mixed = yaml_documents(config_map("a", {"x": "1"}), no_kind, elsewhere("z1"),
                           config_map("c", {"k": "2"}), config_map("b", {"q": "1"}))
    twice = yaml_documents(config_map("a", {"x": "2"}), config_map("a", {"x": "3"}),
                           config_map("p", {"k": "1"}), config_map("p", {"k": "1"}))
    state = [applied(config_map("a", {"x": "1"})), bare]
    return [
        _case("dry-run-client", state, mixed, "--dry-run=client", "-n", "default"),
        _case("dry-run-client-over-a-conflict", [hand_edited_a], yaml_documents(
            config_map("a", {"x": "2"})), "--dry-run=client", "--overwrite=false"),
        _case("dry-run-server", state, mixed, "--dry-run=server", "-n", "default"),
        _case("dry-run-server-conflict", [hand_edited_a], yaml_documents(
            config_map("a", {"x": "2"})), "--dry-run=server", "--overwrite=false"),
        _case("dry-run-server-keeps-nothing", live, twice, "--dry-run=server"),
        _case("dry-run-client-keeps-nothing", live, twice, "--dry-run=client"),
        _case("dry-run-none", live, twice[: twice.index("---")], "--dry-run=none"),
        _case("dry-run-unknown-value", live, twice, "--dry-run=bogus"),
        _case("output-name", state, mixed, "-o", "name", "-n", "default"),
        _case("output-name-client-dry-run", state, mixed, "-o", "name", "--dry-run=client",
              "-n", "default"),
        _case("output-name-and-a-conflict", [hand_edited_a, applied(config_map("b", {}))],
              yaml_documents(config_map("b", {"q": "1"}), config_map("a", {"x": "2"})),
              "-o", "name", "--overwrite=false"),
    ]


def _kustomize_cases() -> list[dict]:
    """``kubectl apply -k``: the build's objects, in its order, named by the directory."""
    tree = {"k/kustomization.yaml": "namePrefix: p-\nnamespace: default\n"
                                    "resources: [cm.yaml]\nconfigMapGenerator:\n"
                                    "- name: gen\n  literals: [a=1]\n",
            "k/cm.yaml": yaml_documents(config_map("a", {"k": "1"}, None),
                                        {"apiVersion": "v1", "kind": "Namespace",
                                         "metadata": {"name": "team"}})}
    edited = annotate(config_map("p-a", {"k": "manual"}), config_map("p-a", {"k": "0"}))
    return [
        _files_case("kustomize", [applied(config_map("p-a", {"k": "0"}))], tree, ["-k", "k"]),
        _files_case("kustomize-conflict", [edited], tree, ["-k", "k"], "--overwrite=false"),
    ]


CASES = _cases()
