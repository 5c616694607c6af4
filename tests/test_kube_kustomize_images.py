"""kustomize/images.py on its own: kustomize's image reference split, which
references an ``images`` entry matches, and what it writes (end to end: the corpus trees
images-replicas, images-tag-and-digest and shop-overlays)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cfgpatch.errors import KubeError
from cfgpatch.kube.kustomize import images
from cfgpatch.kube.kustomize.kustomization import load
from cfgpatch.kube.kustomize.loader import Loader
from cfgpatch.kube.kustomize.resmap import ResMap
from cfgpatch.kube.kustomize.resources import read_resources

DIGEST = "sha256:" + "ab" * 32


@pytest.mark.parametrize("image, expected", [
    ("nginx", ("nginx", "", "")),
    ("nginx:1.27", ("nginx", "1.27", "")),
    ("localhost:5000/acme/web:3", ("localhost:5000/acme/web", "3", "")),
    ("localhost:5000/acme/web", ("localhost:5000/acme/web", "", "")),
    (f"postgres@{DIGEST}", ("postgres", "", DIGEST)),
    (f"postgres:16@{DIGEST}", ("postgres", "16", DIGEST)),
    ("ghcr.io/acme/api:2.1.0", ("ghcr.io/acme/api", "2.1.0", "")),
])
def test_split(image, expected):
    assert images.split(image) == expected


def test_matches_the_name_with_any_tag_or_digest_only():
    assert images.matches("nginx", "nginx")
    assert images.matches("nginx:1.27", "nginx")
    assert images.matches(f"nginx@{DIGEST}", "nginx")
    assert not images.matches("nginx-extra:1", "nginx")
    assert not images.matches("docker.io/nginx:1", "nginx")
    assert not images.matches("nginx", "[")  # a broken pattern matches nothing


@pytest.mark.parametrize("image, matched", [
    (f"nginx:1.27@{DIGEST}", True),       # a tag, then a digest
    ("nginx:@sha256:abc", True),          # both parts may be empty
    ("nginx:1@sha256:", True),
    ("nginx:", True),
    ("nginx@sha256:", True),
    ("nginx@sha256", False),              # the digest needs its colon
    ("nginx@sha256:abc:1", False),        # a tag after the digest
    ("nginx:1@sha512:abc", False),        # only sha256 digests
    ("nginx:1@sha256:abc@sha256:d", False),
    ("nginx:1@sha256:a/b", False),
    ("nginx:1\n", False),                 # Go's $ is the very end of the text
])
def test_matches_a_tag_followed_by_a_digest(image, matched):
    assert images.matches(image, "nginx") is matched


@pytest.mark.parametrize("entry, expected", [
    ({"name": "nginx", "newTag": "1.28"}, "nginx:1.28"),
    ({"name": "nginx", "newName": "mirror.example/nginx"}, "mirror.example/nginx:1.27"),
    ({"name": "nginx", "digest": DIGEST}, f"nginx@{DIGEST}"),
    ({"name": "nginx", "newName": "m/n", "newTag": "2", "digest": DIGEST}, f"m/n:2@{DIGEST}"),
    ({"name": "redis", "newTag": "7"}, "nginx:1.27"),
])
def test_update(entry, expected):
    assert images.update("nginx:1.27", entry) == expected


@pytest.mark.parametrize("entry, expected", [
    ({"name": "nginx", "newTag": "1.28"}, "nginx:1.28"),
    ({"name": "nginx", "digest": "sha256:cd"}, "nginx@sha256:cd"),
    ({"name": "nginx", "newName": "m/nginx"}, f"m/nginx:1.27@{DIGEST}"),
    ({"name": "nginx", "newTag": "2", "digest": "sha256:cd"}, "nginx:2@sha256:cd"),
    ({"name": "nginx", "newName": "m/n", "newTag": "2"}, "m/n:2"),
    ({"name": "nginx", "newName": "m/n", "digest": "sha256:cd"}, "m/n@sha256:cd"),
])
def test_update_a_reference_with_a_tag_and_a_digest(entry, expected):
    assert images.update(f"nginx:1.27@{DIGEST}", entry) == expected


def _kust(tmp_path: Path, kustomization: str, resources: str) -> tuple:
    (tmp_path / "kustomization.yaml").write_text(kustomization)
    (tmp_path / "r.yaml").write_text(resources)
    kust = load(Loader.at(str(tmp_path)))
    resmap = ResMap(read_resources(resources, str(tmp_path / "r.yaml")))
    return kust, resmap


POD = """apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers: [{name: i, image: busybox}]
  containers:
  - {name: a, image: nginx}
  - {name: b, image: "nginx:1.0"}
"""


def test_images_rewrite_containers_and_init_containers(tmp_path):
    kust, resmap = _kust(tmp_path, "images:\n- name: nginx\n  newTag: '2'\n"
                                   "- name: busybox\n  newName: docker.io/library/busybox\n",
                         POD)
    images.images(resmap, None, kust)
    spec = resmap.resources[0].value["spec"]
    assert [c["image"] for c in spec["containers"]] == ["nginx:2", "nginx:2"]
    assert spec["initContainers"][0]["image"] == "docker.io/library/busybox"


def test_images_on_a_custom_resource_any_image_field(tmp_path):
    cr = "apiVersion: acme.example/v1\nkind: Worker\nmetadata: {name: w}\n" \
         "spec:\n  pods:\n    containers:\n    - {name: w, image: nginx}\n"
    kust, resmap = _kust(tmp_path, "images:\n- name: nginx\n  newTag: '3'\n", cr)
    images.images(resmap, None, kust)
    assert resmap.resources[0].value["spec"]["pods"]["containers"][0]["image"] == "nginx:3"


def test_an_entry_without_name_changes_nothing(tmp_path):
    # measured: kubectl kustomize 1.32 builds such a tree with the images as they were
    kust, resmap = _kust(tmp_path, "images:\n- newTag: '2'\n", POD)
    images.images(resmap, None, kust)
    assert resmap.resources[0].value["spec"]["containers"][0]["image"] == "nginx"


def test_a_number_where_a_string_belongs_is_kustomizes_decode_error(tmp_path):
    with pytest.raises(KubeError) as caught:  # as the kustomization is loaded
        _kust(tmp_path, "images:\n- name: nginx\n  newTag: 2\n", POD)
    assert caught.value.message == ("invalid Kustomization: json: cannot unmarshal number into "
                                    "Go struct field Image.images.newTag of type string")
