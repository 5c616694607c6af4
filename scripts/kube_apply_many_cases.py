"""The inputs of the recorded ``kubectl apply`` cases of files of several objects.

Each case is a dict: ``id``; ``live``, the objects the fake API server holds;
``manifest``, the text of the ``-f`` file (``name`` is its file name, default
``manifest.yaml``); ``flags``, extra kubectl flags; ``kinds``, the (apiVersion, kind)
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
    ]
    return cases


CASES = _cases()
