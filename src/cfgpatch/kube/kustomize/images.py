"""kustomize's ``images`` transformer (``imageTags`` is its deprecated spelling).

kustomize v5.5 updates the ``image`` of every element of every ``containers`` and
``initContainers`` list anywhere in a resource, whatever its kind (custom resources
too).  An image matches an entry when it is the entry's ``name``, optionally followed
by a ``:tag`` and then an ``@sha256:digest`` (either or both, each possibly empty; the
``name`` is used as a regular expression, as kustomize does); then ``newName`` replaces
the name, and ``newTag`` and/or ``digest`` replace both the old tag and the old digest;
without either, ``tagSuffix`` is appended to the tag and the digest dropped.  The images
the configuration's field specs name (by default the containers of a Pod's ``spec`` and
of a ``spec.template``) are then updated a second time: harmless, but a ``tagSuffix``
is appended twice there and once elsewhere (a CronJob's containers), as kustomize does.

>>> update("nginx@sha256:aa", {"name": "nginx", "newTag": "1.27"})
'nginx:1.27'
>>> update("nginx:1.26@sha256:aa", {"name": "nginx", "newName": "m/nginx"})
'm/nginx:1.26@sha256:aa'
>>> update("localhost:5000/api:2", {"name": "localhost:5000/api", "newName": "r.io/api"})
'r.io/api:2'
>>> update("nginx:1.0@sha256:aa", {"name": "nginx", "tagSuffix": "-debug"})
'nginx:1.0-debug'
"""

from __future__ import annotations

import re
from functools import partial

from ...errors import KUSTOMIZE_ERROR, KubeError
from ...records import replace
from . import fieldspecs as fs
from .fieldspecs import FieldSpec
from .kustomization import Kustomization
from .resmap import ResMap
from .resources import Resource
from .trace import Trace
from .transformers import run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def split(image: str) -> tuple[str, str, str]:
    """Name, tag and digest of an image reference (kustomize's image.Split)."""
    slash = image.find("/")
    offset = slash if slash > 0 else 0
    search = image[offset:]
    at, colon = search.find("@"), search.find(":")
    if colon < 0 and at < 0:
        return image, "", ""
    if at >= 0 and (at < colon or colon < 0):
        return image[:at + offset], "", image[at + offset + 1:]
    if at >= 0 and colon >= 0:
        return image[:colon + offset], image[colon + offset + 1:at + offset], \
            image[at + offset + 1:]
    return image[:colon + offset], image[colon + offset + 1:], ""


_TAIL = r"(:[a-zA-Z0-9_.{}-]*)?(@sha256:[a-zA-Z0-9_.{}-]*)?\Z"  # Go's $: the very end


def matches(image: str, name: str) -> bool:
    """Whether ``image`` is ``name`` (a pattern) with an optional tag, then digest."""
    try:
        pattern = re.compile("^" + name + _TAIL)
    except re.error:
        return False
    return pattern.match(image) is not None


def update(image: str, entry: dict) -> str:
    """``image`` after one ``images`` entry (unchanged when it does not match)."""
    if not matches(image, entry.get("name") or ""):
        return image
    name, tag, digest = split(image)
    if entry.get("newName"):
        name = entry["newName"]
    new_tag, new_digest = entry.get("newTag") or "", entry.get("digest") or ""
    if new_tag or new_digest:
        tag, digest = new_tag, new_digest
    elif entry.get("tagSuffix"):  # only without newTag and digest; the digest goes
        tag, digest = tag + entry["tagSuffix"], ""
    if tag:
        name += ":" + tag
    if digest:
        name += "@" + digest
    return name


def images(resmap: ResMap, trace: Trace | None, kust: Kustomization) -> None:
    # after the walk of every containers list, the configuration's specs, the defaults
    # included: an image they name is updated twice (a tagSuffix shows it: measured)
    specs = list(resmap.config.images)
    for index, entry in enumerate(kust.get("images", [])):
        entry = _checked(kust, index, entry)
        run(resmap, trace, kust, "images", index, f"/images/{index}",
            partial(_update_resource, entry=entry, specs=specs))


def _checked(kust: Kustomization, index: int, entry: Any) -> dict:
    if not isinstance(entry, dict):
        raise KubeError(f"{kust.where(f'/images/{index}')}: an images entry is a map",
                        code=KUSTOMIZE_ERROR)
    return entry  # the types of its fields: checked as the kustomization is loaded


def _update_resource(resource: Resource, entry: dict, specs: list[FieldSpec]) -> None:
    _walk(resource.value, entry)
    gvk = resource.gvk
    for spec in specs:  # kustomize's image filter creates nothing, whatever ``create`` says
        if spec.applies_to(gvk):
            fs.walk(resource.value, replace(spec, create=False),
                    lambda parent, key: _update_field(parent, key, entry))


def _update_field(parent: dict, key: str, entry: dict) -> None:
    if isinstance(parent.get(key), str):
        parent[key] = update(parent[key], entry)


def _walk(node: Any, entry: dict) -> None:
    if isinstance(node, list):
        for item in node:
            _walk(item, entry)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key in ("containers", "initContainers") and isinstance(value, list):
            for container in value:
                if isinstance(container, dict) and isinstance(container.get("image"), str):
                    container["image"] = update(container["image"], entry)
        else:
            _walk(value, entry)
