"""The page's apply mode, server-side: what ``kubectl apply --server-side`` would store.

:func:`compute_server_side` takes the live object's text (empty: the apply creates the
object), the manifest's and the CRDs' (empty: none; custom resources find their list and
map types there, as ``--crd`` gives them on the command line) and runs what
``cfgpatch kube apply --server-side --live LIVE -f NEW`` runs
(:func:`cfgpatch.kube.ssa.csaupgrade.kubectl_server_side_apply`: the field manager, and
kubectl's move from client-side apply).  Options: ``format`` (``yaml``/``json``),
``manager`` (``--field-manager``, default ``kubectl``), ``force``
(``--force-conflicts``), ``namespace`` (``-n``, default ``default``) and ``time`` (the
managedFields time; default now).  It returns one plain dictionary:

* ``inputs``: per editor (``live``, ``manifest``, ``crd``), ``None`` or where and why it
  cannot be read;
* ``ok``; ``error`` (our words and kubectl's text: for conflicts the server's text and
  kubectl's advice, exactly what the command line prints) and ``conflicts``: each
  conflict's field, owner, values and three ways out (:func:`.ownership.conflict_lines`);
* ``line``: kubectl's line (``deployment.apps/web serverside-applied``); ``warning``;
* ``managers_before`` / ``managers_after``: the managedFields entries (manager,
  operation, apiVersion, time, subresource) with their fields as an indented tree;
* ``owners``: every owned field, its owners before and after (``changed`` where they
  differ); ``removals``: what the apply removed, kept or left stuck, and why;
* ``lines`` (the stored object as ``kubectl get -o yaml --show-managed-fields`` prints
  it, lines not in the live object's text marked) and ``before_after``;
* ``explain``: the lines ``--explain`` writes, as the command line writes them.

Nothing here raises.
"""

from __future__ import annotations

from typing import Any

from ..errors import CfgPatchError, KubeError, OwnershipConflict
from . import locate, rejections, render
from .applymode import resource_name
from .printed import printed_lines

EDITORS = ("live", "manifest", "crd")
FORMATS = ("yaml", "json")
DEFAULT_MANAGER = "kubectl"
CRD_EDITOR = "the CRD editor"


class _Options:
    def __init__(self, options: dict) -> None:
        fmt = options.get("format")
        self.format = fmt if isinstance(fmt, str) and fmt in FORMATS else "yaml"
        manager = options.get("manager")
        self.manager = manager.strip() if isinstance(manager, str) and manager.strip() \
            else DEFAULT_MANAGER
        self.force = options.get("force") is True
        namespace = options.get("namespace")
        self.namespace = namespace if isinstance(namespace, str) and namespace else "default"
        time = options.get("time")
        self.time = time if isinstance(time, str) and time else None


def read_crds(text: str) -> list[dict]:
    """The CustomResourceDefinitions of the CRD editor (several documents allowed)."""
    from ..kube.io import reader

    found: list[dict] = []
    for item in reader.load_objects(text, "crd"):
        if isinstance(item, KubeError):
            raise item
        if item[0].get("kind") == "CustomResourceDefinition":
            found.append(item[0])
    if not found:
        raise KubeError("the CRD editor holds no CustomResourceDefinition",
                        hint="paste the CRD of the custom resource, as `kubectl get crd NAME "
                             "-o yaml` prints it")
    return found


def _read(texts: dict, data: dict) -> dict:
    from ..kube.io import reader

    objects: dict[str, Any] = {}
    for name in EDITORS:
        text = texts[name]
        if name != "manifest" and not text.strip():
            objects[name] = None if name == "live" else []
            continue
        try:
            objects[name] = read_crds(text) if name == "crd" else reader.load_object(
                text, name)[0]
        except CfgPatchError as exc:
            data["inputs"][name] = locate.input_error(text, exc)
    return objects


def _namespaced(manifest: dict, namespace: str) -> dict:
    """The manifest with the request's namespace, as the server sets it on a namespaced
    object that names none (``cfgpatch kube apply``'s ``-n``, else ``default``)."""
    from ..kube.schema.scope import is_cluster_scoped

    meta = manifest.get("metadata")
    if is_cluster_scoped(str(manifest.get("apiVersion")), str(manifest.get("kind"))) or \
            not isinstance(meta, dict) or meta.get("namespace"):
        return manifest
    return {**manifest, "metadata": {**meta, "namespace": namespace}}


def _identity(obj: dict, namespace: str) -> tuple:
    from ..kube.schema.scope import is_cluster_scoped

    found = obj.get("metadata")
    meta: dict = found if isinstance(found, dict) else {}
    scoped = not is_cluster_scoped(str(obj.get("apiVersion")), str(obj.get("kind")))
    own = meta.get("namespace") or (namespace if scoped else "")
    return obj.get("apiVersion"), obj.get("kind"), own, meta.get("name")


def _matched_live(live: dict | None, manifest: dict, namespace: str) -> tuple[Any, str]:
    """The live object the apply meets, as the command line matches ``--live`` by
    identity: another object is left alone (the apply creates the manifest's), the same
    object at another version of its group is refused."""
    if live is None:
        return None, ""
    mine, theirs = _identity(manifest, namespace), _identity(live, namespace)
    if mine == theirs:
        return live, ""
    if mine[1:] == theirs[1:] and str(mine[0]).rpartition("/")[0] == \
            str(theirs[0]).rpartition("/")[0]:
        raise KubeError(f"{resource_name(manifest)} is {mine[0]} in the manifest but "
                        f"{theirs[0]} in the live object",
                        hint="an API server converts between versions of a kind; cfgpatch "
                             "does not: give the live object at the manifest's version")
    return None, (f"The live object is {resource_name(live)} and the manifest is "
                  f"{resource_name(manifest)}: another object, so the apply creates it "
                  f"(the live object is left as it is).")


def field_tree(fields: Any) -> list[str]:
    """A field set as indented lines: ``spec``, ``  replicas``, ``  [name="app"]``; a
    list item or map the manager owns as a whole (its ``.`` marker) says so."""
    from ..kube.ssa import fieldpath as fp

    out: list[str] = []

    def walk(node: Any, depth: int) -> None:
        for pe in sorted(set(node.members) | set(node.children)):
            text = pe.data if pe.kind == fp.FIELD else str(pe)
            if pe in node.members and pe in node.children:
                text += "  (itself and the fields below)"
            out.append("  " * depth + text)
            if pe in node.children:
                walk(node.children[pe], depth + 1)

    walk(fields, 0)
    return out


def managers_view(entries: list) -> list[dict]:
    """The managedFields entries, each with its fields as a tree."""
    return [{"manager": e.manager, "operation": e.operation, "api_version": e.api_version,
             "time": e.time or "", "subresource": e.subresource,
             "count": e.fields.leaves().size(), "fields": field_tree(e.fields)}
            for e in entries]


def _owners(before: list, after: list) -> list[dict]:
    from ..kube.explain.ownership import owner_lines

    out = []
    for line in owner_lines(before, after):
        path, _, change = line[2:].partition(": ")
        was, _, now = change.partition(" -> ")
        out.append({"changed": line.startswith("*"), "path": path, "before": was,
                    "after": now})
    return out


def _conflicts(error: OwnershipConflict, manager: str, live: Any, manifest: dict) -> list:
    from ..kube.explain.ownership import conflict_lines

    out = []
    for c in error.conflicts:
        head, *rest = conflict_lines([c], manager, live, manifest)
        out.append({"field": c.field, "owner": c.owner, "manager": c.manager,
                    "text": head, "ways": [line.strip() for line in rest[:3]],
                    "tools": [line.strip() for line in rest[3:]]})
    return out


def compute_server_side(live_text: str, manifest_text: str, crd_text: str = "",
                        options: dict | None = None) -> dict:
    """Everything the server-side apply mode shows (see the module docstring)."""
    opts = _Options(options or {})
    data: dict[str, Any] = {"mode": "apply", "side": "server", "format": opts.format,
                            "manager": opts.manager, "force": opts.force, "ok": False,
                            "inputs": {name: None for name in EDITORS}}
    objects = _read({"live": live_text, "manifest": manifest_text, "crd": crd_text}, data)
    unreadable = [name for name in EDITORS if data["inputs"][name]]
    if unreadable:
        title = {"live": "live object", "manifest": "new manifest", "crd": "CRD"}[unreadable[0]]
        data["error"] = {"plain": f"The {title} cannot be read: "
                                  f"{data['inputs'][unreadable[0]]['plain']}", "kubectl": ""}
        return data
    manifest = _namespaced(objects["manifest"], opts.namespace)
    try:
        _apply(data, opts, objects["live"], manifest, objects["crd"])
    except KubeError as exc:
        data["error"] = rejections.rejection(exc.message, exc.hint)
    except CfgPatchError as exc:
        data["error"] = {"plain": exc.message, "kubectl": f"error: {exc.message}"}
    return data


def _apply(data: dict, opts: _Options, live: Any, manifest: dict, crds: list) -> None:
    from ..kube.explain.serverside import (
        CONFLICT_ADVICE,
        apply_lines,
        conflict_report,
        no_type_hint,
        removal_lines,
    )
    from ..kube.ssa import Types
    from ..kube.ssa.csaupgrade import kubectl_server_side_apply
    from ..kube.ssa.managed import entries_of

    live, data["warning"] = _matched_live(live, manifest, opts.namespace)
    name = resource_name(manifest)
    data["managers_before"] = managers_view(entries_of(live))
    try:
        done = kubectl_server_side_apply(live, manifest, field_manager=opts.manager,
                                         force=opts.force, schema=Types(crds=crds),
                                         time=opts.time)
    except OwnershipConflict as error:
        data["conflicts"] = _conflicts(error, opts.manager, live, manifest)
        data["explain"] = conflict_report(name, opts.manager, live, manifest,
                                          error.conflicts)
        data["error"] = {"plain": f"{len(error.conflicts)} field(s) of the manifest belong "
                                  f"to other managers, so the server refuses the apply "
                                  f"(kubectl exits 1). The ways out are below.",
                         "kubectl": f"error: {error.message}\n{CONFLICT_ADVICE}"}
        return
    except KubeError as error:
        raise no_type_hint(error, CRD_EDITOR) from None
    result = done.result
    lines = printed_lines(result.object, opts.format, managed_fields=True)
    data.update(ok=True, line=f"{name} serverside-applied", result=result.object,
                managers_after=managers_view(result.managed_fields),
                owners=_owners(entries_of(live), result.managed_fields),
                removals=removal_lines(opts.manager, live, manifest, done),
                removed=[path for path in _paths(result.changes.removed)],
                steps=done.steps[1:],
                forced=[f"{c.field}: taken from {c.owner}" for c in result.forced],
                explain=apply_lines(name, opts.manager, live, manifest, done))
    data["lines"] = _marked(live, lines, opts.format)
    data["before_after"] = _before_after(live, lines, opts.format)


def _paths(fields: Any) -> list[str]:
    from ..kube.ssa import fieldpath as fp

    return [fp.path_string(p) for p in fields.leaves().paths()]


def _live_lines(live: dict | None, fmt: str) -> list:
    if live is None:
        return []
    try:
        return printed_lines(live, fmt, managed_fields=True)
    except CfgPatchError:
        return []


def _marked(live: dict | None, lines: list, fmt: str) -> list:
    """``[text, mark, 0]`` per result line, ``~`` on lines the live object's text lacks."""
    signs = [sign for sign, _ in render.before_after(_live_lines(live, fmt), lines)
             if sign != "-"]
    return [[text, render.CHANGED if sign == "+" else "", 0]
            for (text, _), sign in zip(lines, signs, strict=True)]


def _before_after(live: dict | None, lines: list, fmt: str) -> list:
    if live is None:
        return [["+", text] for text, _ in lines]
    return render.before_after(_live_lines(live, fmt), lines)


def server_side_json(live_text: str, manifest_text: str, crd_text: str = "",
                     options_text: str = "{}") -> str:
    """:func:`compute_server_side` as JSON text (what the page's worker receives)."""
    import json

    try:
        options = json.loads(options_text)
        data = compute_server_side(live_text, manifest_text, crd_text,
                                   options if isinstance(options, dict) else {})
    except Exception as exc:  # an engine bug must not take the page down
        message = f"internal error: {type(exc).__name__}: {exc}"
        data = {"mode": "apply", "side": "server", "ok": False,
                "inputs": {name: None for name in EDITORS},
                "error": {"plain": message, "kubectl": ""}}
    return json.dumps(data, ensure_ascii=False)
