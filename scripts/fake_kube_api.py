"""A tiny fake Kubernetes API server, so real kubectl shows the patches it creates.

``kubectl apply`` (client-side) and ``kubectl edit`` compute their patch on the
client: they GET the live object, build a strategic merge patch (or, for a kind they
do not know, a JSON merge patch) and send it with PATCH.  This server answers just
enough for that: legacy discovery (``/api``, ``/apis``, one ``APIResourceList`` per
group version it serves), 404 for the OpenAPI documents (so kubectl falls back to its
compiled-in Go types, the schema of our built-in table), GET of the live objects
(404 for any other), PATCH, whose body and content type it records and answers with
the live object, and POST (a create), recorded the same way.  Discovery lists the
kinds of the live objects and of the objects a manifest names (``State.kinds``).

Used by ``scripts/record_kube_apply.py`` and by the live test
``tests/test_kube_apply_live.py``.  Standard library only.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

#: Kinds without a namespace (the ones our cases use).
CLUSTER_KINDS = {"Namespace", "Node", "ClusterRole", "ClusterRoleBinding",
                 "PersistentVolume", "StorageClass", "CustomResourceDefinition"}
IRREGULAR = {"Ingress": "ingresses", "NetworkPolicy": "networkpolicies",
             "PodDisruptionBudget": "poddisruptionbudgets", "Endpoints": "endpoints",
             "StorageClass": "storageclasses", "IngressClass": "ingressclasses",
             "PriorityClass": "priorityclasses"}


def plural(kind: str) -> str:
    """The resource name for ``kind`` (lower case, plural)."""
    if kind in IRREGULAR:
        return IRREGULAR[kind]
    lower = kind.lower()
    if lower.endswith("y"):
        return lower[:-1] + "ies"
    if lower.endswith("s"):
        return lower + "es"
    return lower + "s"


def object_path(obj: dict) -> str:
    """The REST path of ``obj`` (``/apis/apps/v1/namespaces/default/deployments/web``)."""
    api_version, kind = obj["apiVersion"], obj["kind"]
    base = f"/api/{api_version}" if "/" not in api_version else f"/apis/{api_version}"
    name = obj["metadata"]["name"]
    if kind in CLUSTER_KINDS:
        return f"{base}/{plural(kind)}/{name}"
    namespace = obj["metadata"].get("namespace", "default")
    return f"{base}/namespaces/{namespace}/{plural(kind)}/{name}"


@dataclass
class State:
    """What the server serves and what it saw."""

    live: dict | None = None
    #: More live objects (``live``, if set, is served too).
    objects: list = field(default_factory=list)
    #: (apiVersion, kind) pairs discovery lists besides the live objects' own.
    kinds: list = field(default_factory=list)
    patches: list = field(default_factory=list)  # (content type, body text)
    #: Every PATCH and POST in order: (method, path, content type, body text).
    writes: list = field(default_factory=list)
    requests: list = field(default_factory=list)

    def served(self) -> list[dict]:
        return ([self.live] if self.live is not None else []) + list(self.objects)


def _resource_lists(kinds: list[tuple[str, str]]) -> dict[str, dict]:
    lists: dict[str, dict] = {}
    for api_version, kind in kinds:
        resource = {"name": plural(kind), "singularName": kind.lower(), "kind": kind,
                    "namespaced": kind not in CLUSTER_KINDS,
                    "verbs": ["get", "list", "patch", "update", "create", "delete"]}
        entry = lists.setdefault(api_version, {"kind": "APIResourceList", "apiVersion": "v1",
                                               "groupVersion": api_version, "resources": []})
        if resource not in entry["resources"]:
            entry["resources"].append(resource)
    return lists


class _Handler(BaseHTTPRequestHandler):
    state: State

    def log_message(self, *args) -> None:  # quiet
        return

    def _send(self, status: int, body: dict) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _not_found(self) -> None:
        self._send(404, {"kind": "Status", "apiVersion": "v1", "status": "Failure",
                         "reason": "NotFound", "code": 404, "message": "not found"})

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?")[0]
        served = self.state.served()
        self.state.requests.append(("GET", path))
        lists = _resource_lists([(obj["apiVersion"], obj["kind"]) for obj in served]
                                + list(self.state.kinds))
        if path == "/api":
            self._send(200, {"kind": "APIVersions", "versions": ["v1"],
                             "serverAddressByClientCIDRs": [
                                 {"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]})
        elif path == "/apis":
            groups = []
            for gv in lists:
                if "/" in gv:
                    group, version = gv.split("/")
                    entry = {"groupVersion": gv, "version": version}
                    groups.append({"name": group, "versions": [entry],
                                   "preferredVersion": entry})
            self._send(200, {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups})
        elif path == "/api/v1" or path.startswith("/apis/") and path.count("/") == 3:
            gv = path[len("/api/"):] if path.startswith("/api/") else path[len("/apis/"):]
            self._send(200, lists.get(gv, {"kind": "APIResourceList", "apiVersion": "v1",
                                           "groupVersion": gv, "resources": []}))
        else:
            found = [obj for obj in served if object_path(obj) == path]
            if found:
                self._send(200, found[0])
            else:
                self._not_found()

    def _body(self, method: str) -> tuple[str, str]:
        path = self.path.split("?")[0]
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode()
        content_type = self.headers.get("Content-Type", "")
        self.state.requests.append((method, path))
        self.state.writes.append((method, path, content_type, body))
        return path, body

    def do_PATCH(self) -> None:  # noqa: N802
        path, body = self._body("PATCH")
        self.state.patches.append((self.state.writes[-1][2], body))
        found = [obj for obj in self.state.served() if object_path(obj) == path]
        self._send(200, found[0] if found else {})

    def do_POST(self) -> None:  # noqa: N802
        _, body = self._body("POST")
        try:
            created = json.loads(body)
        except ValueError:
            created = {}
        self._send(201, created)


class FakeServer:
    """A running fake API server on 127.0.0.1 (use as a context manager)."""

    def __init__(self) -> None:
        self.state = State()
        handler = type("Handler", (_Handler,), {"state": self.state})
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@dataclass
class Sent:
    """What kubectl did: its exit code and output, and the PATCH it sent (if any)."""

    code: int
    stdout: str
    stderr: str
    content_type: str | None
    patch: str | None


def _run_against(kubectl: str, args: list, folder: str, live: dict | None = None,
                 objects: list | tuple = (), kinds: list | tuple = (),
                 env: dict | None = None) -> tuple[subprocess.CompletedProcess, State]:
    """Run ``kubectl ARGS`` in ``folder`` against a fake server holding ``live`` and
    ``objects`` (discovery also listing ``kinds``); what it did, and what the server saw."""
    with FakeServer() as server:
        server.state.live = live
        server.state.objects = list(objects)
        server.state.kinds = list(kinds)
        command = [kubectl, *args, f"--server={server.url}", f"--cache-dir={folder}/.cache",
                   "--kubeconfig=/dev/null"]
        done = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=60,
                              env={**os.environ, **(env or {})})
    return done, server.state


def _run(kubectl: str, args: list, live: dict, folder: str, env: dict | None = None) -> Sent:
    done, state = _run_against(kubectl, args, folder, live=live, env=env)
    sent = state.patches[-1] if state.patches else (None, None)
    return Sent(done.returncode, done.stdout, done.stderr, sent[0], sent[1])


def kubectl_apply(kubectl: str, live: dict, manifest: dict, extra: tuple = ()) -> Sent:
    """``kubectl apply -f manifest`` against a server holding ``live``."""
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "manifest.json"), "w", encoding="utf-8") as out:
            json.dump(manifest, out)
        return _run(kubectl, ["apply", "-f", "manifest.json", "--validate=false", *extra],
                    live, folder)


def kubectl_edit(kubectl: str, old: dict, new: dict) -> Sent:
    """``kubectl edit`` of ``old`` with an editor that writes ``new``: the two-way patch."""
    with tempfile.TemporaryDirectory() as folder:
        edited = os.path.join(folder, "edited.json")
        with open(edited, "w", encoding="utf-8") as out:
            json.dump(new, out)
        kind = old["kind"].lower()
        target = f"{kind}/{old['metadata']['name']}"
        args = ["edit", target, "--validate=false", "--output-patch=false"]
        namespace = old["metadata"].get("namespace")
        if namespace and old["kind"] not in CLUSTER_KINDS:
            args.append(f"--namespace={namespace}")
        return _run(kubectl, args, old, folder, env={"KUBE_EDITOR": f"cp {edited}"})


@dataclass
class Applied:
    """What ``kubectl apply`` of several objects did: exit code, output, and every
    PATCH and POST in order as (method, path, content type, body text)."""

    code: int
    stdout: str
    stderr: str
    writes: list


def kubectl_apply_files(kubectl: str, live: list[dict], files: dict[str, str],
                        file_args: list[str], kinds: list[tuple[str, str]],
                        extra: tuple = ()) -> Applied:
    """``kubectl apply FILE_ARGS`` in a folder holding ``files`` (relative path -> text)
    against a server holding ``live``.

    ``kinds``: the (apiVersion, kind) pairs discovery must know besides the live
    objects' (the manifest's, so that kubectl can map them).
    """
    with tempfile.TemporaryDirectory() as folder:
        for name, text in files.items():
            path = os.path.join(folder, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as out:
                out.write(text)
        done, state = _run_against(kubectl, ["apply", *file_args, "--validate=false", *extra],
                                   folder, objects=live, kinds=kinds)
    return Applied(done.returncode, done.stdout, done.stderr, list(state.writes))
