"""``configMapGenerator`` and ``secretGenerator``, and the content hash in their names.

Sources are read as kustomize v5.5 reads them: ``envs`` (``KEY=VALUE`` lines; blank
lines and ``#`` comments skipped), then ``literals`` (``KEY=VALUE``, one pair of
surrounding quotes removed from the value), then ``files`` (``key=path`` or ``path``,
keyed by the file name; text that is not UTF-8 goes to ``binaryData``).  A repeated key
is kustomize's error.  Secrets hold base64 values and default to ``type: Opaque``.
``generatorOptions`` of the kustomization apply to every generator (the generator's own
labels and annotations win; ``disableNameSuffixHash``/``immutable`` from either).

A generator with ``behavior: merge`` or ``replace`` changes the resource of the same
id that is already in the build (from a base); ``create`` (the default) adds one.

The name suffix (:func:`content_hash`) is added at the very end of a build: the first
ten hex digits of the SHA-256 of Go's JSON of ``{kind, name: "", data, ...}`` with
``0 1 3 a e`` spelled ``g h k m t`` (the name does not count, as measured).
"""

from __future__ import annotations

import os

from ...errors import KUSTOMIZE_ERROR, KubeError
from ..go import json as gojson
from ..problems import Kustomize, ProblemError, YamlValue, cause
from .kustomization import ORIGIN, Kustomization
from .plainkeys import has_typed_keys, plain_key
from .resmap import ResMap
from .resources import Generated, Resource, Source, annotate_origin
from .styles import kustomize_set

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .trace import Step, Trace  # the trace module: imported by the caller that explains


def run_generators(resmap: ResMap, trace: Trace | None, kust: Kustomization,
                   configured_in: str | None = None, configured_by: dict | None = None
                   ) -> None:
    """Add (or merge, or replace) the generated ConfigMaps and Secrets of ``kust``.

    ``configured_in``: with ``buildMetadata: [originAnnotations]`` at the top, the
    kustomization file as the origin annotation names it."""
    options = kust.get("generatorOptions", {})
    for field_name, kind in (("configMapGenerator", "ConfigMap"), ("secretGenerator", "Secret")):
        for index, args in enumerate(kust.get(field_name, [])):
            pointer = f"/{field_name}/{index}"
            made = generate(kust, kind, args if isinstance(args, dict) else {}, options,
                            pointer)
            if configured_in is not None:
                annotate_origin(made, {"configuredIn": configured_in, "configuredBy":
                                       configured_by or {"apiVersion": "builtin",
                                                         "kind": f"{kind}Generator"}})
            step = None
            if trace is not None:  # the trace module is loaded: the caller made a Trace
                from .trace import GENERATOR, Step

                step = trace.begin(Step(GENERATOR, field_name, index, kust.file,
                                        kust.line(pointer)))
            _absorb(resmap, made, step)


def generate(kust: Kustomization, kind: str, args: dict, options: Any, pointer: str) -> Resource:
    name = args.get("name")
    if not isinstance(name, str):
        name = ""
    opts = _merged_options(args.get("options"), options)
    pairs = _pairs(kust, args, kind, name)
    meta: dict[str, Any] = {"name": name}
    if isinstance(args.get("namespace"), str) and args["namespace"]:
        meta["namespace"] = args["namespace"]
    if opts["labels"]:
        meta["labels"] = _written(opts["labels"])
    if opts["annotations"]:
        meta["annotations"] = _written(opts["annotations"])
    value: dict[str, Any] = {"apiVersion": "v1", "kind": kind, "metadata": meta}
    data = {k: v for k, v in pairs if isinstance(v, str)}
    binary = {k: encode_base64(v) for k, v in pairs if isinstance(v, bytes)}
    if kind == "Secret":
        data = {k: encode_base64(v.encode("utf-8", "surrogateescape")) for k, v in data.items()}
        data.update(binary)
        binary = {}
        value["type"] = args.get("type") or "Opaque"
    if data or kind == "Secret":  # measured: an empty Secret prints data: {}
        value["data"] = _written(data)
    if binary:
        value["binaryData"] = _written(binary)
    if opts["immutable"]:
        value["immutable"] = True
    written = args.get("behavior")
    if written not in ("create", "merge", "replace"):
        written = "unspecified"  # kustomize: an unknown word (even "Merge") means unspecified
    behavior = "create" if written == "unspecified" else written
    line = kust.line(pointer)
    typed = any(has_typed_keys(m) for m in (meta.get("labels") or {}, value.get("data") or {},
                                            value.get("binaryData") or {}))
    return Resource(value, Source(kust.file, 0, {"": (line, 1)}),
                    generated=Generated(behavior, not opts["disable_hash"], kust.file,
                                        written),
                    typed_keys=typed)


def encode_base64(data: bytes) -> str:
    """kustomize's base64 of generated data: text of 70 characters or more is cut into
    lines of 70, each ending with a line break (so it prints as a ``|`` block, and the
    name hash covers the breaks; measured, tree ``reported-differences``)."""
    import base64

    text = base64.b64encode(data).decode()
    if len(text) < 70:
        return text
    return "".join(text[i:i + 70] + "\n" for i in range(0, len(text), 70))


def _written(pairs: dict) -> dict:
    """A map a generator writes: its keys plain (:mod:`.plainkeys`), its values as
    kustomize sets them."""
    return {plain_key(k): kustomize_set(v) for k, v in pairs.items()}


def _merged_options(local: Any, global_: Any) -> dict:
    local = local if isinstance(local, dict) else {}
    global_ = global_ if isinstance(global_, dict) else {}
    labels = {**_strings(global_.get("labels")), **_strings(local.get("labels"))}
    annotations = {**_strings(global_.get("annotations")), **_strings(local.get("annotations"))}
    return {"labels": labels, "annotations": annotations,
            "disable_hash": bool(local.get("disableNameSuffixHash")
                                 or global_.get("disableNameSuffixHash")),
            "immutable": bool(local.get("immutable") or global_.get("immutable"))}


def _strings(value: Any) -> dict:
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def _pairs(kust: Kustomization, args: dict, kind: str, name: str) -> list[tuple[str, Any]]:
    """The key/value pairs of a generator, as kustomize v5.5 loads them (measured: keys
    are not validated; an env file line without ``=`` is the key with an empty value,
    the environment is not read)."""
    pairs: list[tuple[str, Any]] = []
    envs = [str(p) for p in args.get("envs") or []]
    if isinstance(args.get("env"), str) and args["env"]:
        envs.append(args["env"])
    for path in envs:
        try:
            data, _real = kust.loader.read_bytes(path)
            pairs += _env_pairs(data)
        except KubeError as err:
            raise ProblemError(Kustomize("kv-env-files", detail=" ".join(envs),
                                         cause=cause(err)), code=err.code) from None
    literals = [str(x) for x in args.get("literals") or []]
    for literal in literals:
        key, sep, val = literal.partition("=")
        if not sep or not key:
            raise ProblemError(Kustomize("kv-literal", name=literal, detail=" ".join(literals)),
                               code=KUSTOMIZE_ERROR)
        pairs.append((key, _unquote(val)))
    sources = [str(x) for x in args.get("files") or []]
    for source in sources:
        key, sep, path = source.partition("=")
        listed = " ".join(sources)
        if not sep:
            key, path = os.path.basename(source), source
        elif not key:
            raise ProblemError(Kustomize("kv-file-sources", detail=listed, cause=Kustomize(
                "kv-missing-key", path=path, name=source)), code=KUSTOMIZE_ERROR)
        try:
            data, _real = kust.loader.read_bytes(path)
        except KubeError as err:
            raise ProblemError(Kustomize("kv-file-sources", detail=listed, cause=cause(err)),
                               code=err.code) from None
        try:
            pairs.append((key, data.decode("utf-8")))
        except UnicodeDecodeError:
            pairs.append((key, data))
    seen: set[str] = set()
    for key, _value in pairs:
        if key in seen:
            raise ProblemError(Kustomize("repeated-key", name=name, field=key, detail=kind),
                               code=KUSTOMIZE_ERROR)
        seen.add(key)
    return pairs


def _env_pairs(data: bytes) -> list[tuple[str, str]]:
    """The pairs of an env file, read as kustomize reads one (measured): lines end at
    ``\n`` only (a ``\r`` before it goes), a line that is not UTF-8 is an error, one
    byte order mark is dropped from the first line, leading white space (Go's) goes,
    and empty and ``#`` lines, and lines with no key (``=x``), are skipped."""
    out = []
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    from ..io.patch_text import GO_SPACES  # (only for a build with an env file)

    for number, raw in enumerate(lines):
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProblemError(Kustomize("invalid-utf8-line", detail=raw),
                               code=KUSTOMIZE_ERROR) from None
        if number == 0 and line.startswith("\ufeff"):
            line = line[1:]
        line = line.lstrip(GO_SPACES)
        if not line or line.startswith("#"):
            continue
        key, _sep, value = line.partition("=")
        if key:  # a line starting with "=" has no key: skipped like an empty one
            out.append((key, value))
    return out


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return value[1:-1]
    return value


def _absorb(resmap: ResMap, made: Resource, step: Step | None) -> None:
    assert made.generated is not None
    behavior = made.generated.behavior
    found = resmap.by_any_id(made.cur_id())  # its id computed once, not per resource
    if not found:
        if behavior != "create":
            raise ProblemError(Kustomize("generated-id-missing", id=go_id(made)),
                               code=KUSTOMIZE_ERROR,
                               hint="kustomize also prints the generator's address here")
        resmap.append(made)
        if step is not None:
            from .trace import Touch, snapshot

            step.targets.append(made.describe())
            step.touches.append(Touch(made, None, snapshot(made.value), made.describe()))
        return
    if len(found) > 1:
        raise ProblemError(Kustomize("generated-id-many", id=str(made.cur_id())),
                           code=KUSTOMIZE_ERROR)
    old = found[0]
    if behavior == "create":
        raise ProblemError(Kustomize("generated-id-exists", id=go_id(made)),
                           code=KUSTOMIZE_ERROR,
                           hint="kustomize also prints the generator's address here")
    if step is not None:
        from .trace import Touch, snapshot
    before = snapshot(old.value) if step is not None else None
    _take_metadata(made, old, keep_origin=behavior == "merge")
    if behavior == "merge":
        for key in ("data", "binaryData"):
            merged = {**(old.value.get(key) or {}), **(made.value.get(key) or {})}
            if merged:
                made.value[key] = merged
    made.typed_keys = made.typed_keys or old.typed_keys
    made.previous = list(old.previous)
    made.prefixes, made.suffixes = list(old.prefixes), list(old.suffixes)
    # measured (merge and replace, 1.32): hashed only when both generators hash, so a
    # base's disableNameSuffixHash: true holds, and so does an overlay's
    made.generated.needs_hash = made.generated.needs_hash and bool(
        old.generated and old.generated.needs_hash)
    made.generated.written = old.generated.written if old.generated else None
    resmap.replace(old, made)
    if step is not None:
        step.targets.append(made.describe())
        step.touches.append(Touch(made, before, snapshot(made.value), made.describe()))


def absorb_all(resmap: ResMap, made: list[Resource]) -> None:
    """Resources a generator made that carry no generator behaviour (a helm chart's, an
    IAMPolicyGenerator's): appended, and an id the build holds already (current or
    earlier) is kustomize's ``AbsorbAll`` error (measured: two charts rendering one
    Deployment; kustomize also prints the generator's address)."""
    for resource in made:
        found = resmap.by_any_id(resource.cur_id())
        if len(found) > 1:
            raise ProblemError(Kustomize("generated-id-many", id=str(resource.cur_id())),
                               code=KUSTOMIZE_ERROR)
        if found:
            raise ProblemError(Kustomize("generated-id-exists", id=go_id(resource)),
                               code=KUSTOMIZE_ERROR,
                               hint="kustomize also prints the generator's address here")
        resmap.append(resource)


def go_id(resource: Resource) -> str:
    """The resource's id as Go's ``%#v`` prints kustomize's ResId."""
    cur = resource.cur_id()
    gvk = cur.gvk
    scoped = "true" if cur.cluster_scoped else "false"
    return (f'resid.ResId{{Gvk:resid.Gvk{{Group:"{gvk.group}", Version:"{gvk.version}", '
            f'Kind:"{gvk.kind}", isClusterScoped:{scoped}}}, Name:"{cur.name}", '
            f'Namespace:"{cur.namespace}"}}')


def _take_metadata(new: Resource, old: Resource, keep_origin: bool = False) -> None:
    """The generated resource takes the name and namespace of the one it merges into
    or replaces, and its labels and annotations under its own; a merge keeps the old
    origin annotation (measured: a replace gives the new one)."""
    meta = new.metadata()
    for key in ("labels", "annotations"):
        merged = {**old.metadata().get(key, {}), **meta.get(key, {})}
        if merged:
            meta[key] = merged
    old_origin = old.metadata().get("annotations", {}).get(ORIGIN)
    if keep_origin and old_origin is not None:
        meta["annotations"][ORIGIN] = old_origin
    new.set_name(old.name)
    new.set_namespace(old.namespace)


# ----------------------------------------------------------------- hash suffix


def content_hash(value: dict) -> str:
    """kustomize's hash of a generated ConfigMap or Secret (see the module docstring).

    >>> content_hash({"kind": "Secret", "type": "Opaque", "data": {"password": "Y2hhbmdlLW1l"}})
    'cbdk8c6c2d'
    """
    kind = value.get("kind")
    # a ConfigMap without data: kustomize hashes "" (a Secret always has its data map)
    data = value.get("data")
    encoded: dict[str, Any] = {"kind": kind, "name": "",
                               "data": data if data or kind == "Secret" else ""}
    if kind == "Secret":
        encoded["type"] = value.get("type") or ""
    if value.get("immutable") is not None:
        encoded["immutable"] = value.get("immutable")
    if value.get("binaryData"):
        encoded["binaryData"] = value["binaryData"]
    if any(_typed_below(item, 0) for key in ("data", "binaryData")
           for item in (value.get(key) or {}).values()):  # measured: a patch put one there
        raise ProblemError(YamlValue("unsupported-type", "map[interface {}]interface {}"),
                           code=KUSTOMIZE_ERROR)
    digest = _sha256(gojson.encode(encoded).encode("utf-8")).hexdigest()[:10]
    return digest.translate(_HASH_LETTERS)


def _sha256(data: bytes) -> Any:
    """SHA-256 of ``data``: CPython's built-in ``_sha256`` (or ``_sha2``) when it has one,
    which loads in well under a millisecond; ``hashlib`` (OpenSSL, several milliseconds
    to load) otherwise.  Imported only when a build hashes a generated object."""
    for name in ("_sha2", "_sha256"):  # CPython 3.12+, 3.11 (private: found by name)
        try:
            return __import__(name).sha256(data)
        except (ImportError, AttributeError):
            pass
    from hashlib import sha256

    return sha256(data)


#: kustomize's hash encoding: these hex digits become letters (no vowels, no 0/1/3).
_HASH_LETTERS = str.maketrans("013ae", "ghkmt")


def _typed_below(value: Any, depth: int) -> bool:
    """Is there a key that reads as no string in ``value`` (a data value that is a map:
    kustomize's hash cannot encode it, tree ``written-key-types/strategic-patch-key``)?"""
    if depth > 10000:
        return False
    if isinstance(value, dict):
        return has_typed_keys(value) or any(_typed_below(v, depth + 1) for v in value.values())
    if isinstance(value, list):
        return any(_typed_below(v, depth + 1) for v in value)
    return False


def add_hashes(resmap: ResMap, trace: Trace | None) -> None:
    """Append the content hash to the name of every generated resource that wants it."""
    from .transformers import run_at

    wanted = [r for r in resmap.resources if r.generated and r.generated.needs_hash]

    def change(resource: Resource) -> None:
        resource.store_previous_id()
        resource.set_name(f"{resource.name}-{content_hash(resource.value)}")

    if wanted:
        run_at(resmap, trace, ("(hash suffixes)", 0), "nameSuffixHash", 0, change, wanted)
