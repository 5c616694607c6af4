"""Built-in plugins that no kustomization field configures, only a ``generators:`` or
``transformers:`` entry (``apiVersion: builtin``): IAMPolicyGenerator and
HashTransformer, as kustomize v5.5.0 runs them (measured with kubectl 1.32, tree
``builtin-plugins-fieldless``).

- IAMPolicyGenerator (``cloud: gke`` only; another cloud is ``cloud provider X not
  supported yet``) writes a ServiceAccount *as YAML text* (kustomize formats the
  values into a template and parses it), so a value YAML cannot read there fails the
  build with go-yaml's words, and a namespace is added only when one is given.  Its
  configuration is decoded as Go's ``json.Unmarshal`` decodes it into kustomize's
  ``IAMPolicyGeneratorPlugin`` (unknown fields ignored, a wrongly typed value is Go's
  error).
- HashTransformer appends the content hash to every generated ConfigMap or Secret that
  wants one, where it runs; the build's own hash suffix is still added at the end (a
  name then carries the hash twice, as in kustomize).
"""

from __future__ import annotations

from typing import Any

from ...errors import KUSTOMIZE_ERROR, KubeError
from . import gotypes
from .generators import absorb_all, content_hash
from .kustomization import Kustomization
from .openapi import SchemaState
from .resmap import ResMap
from .resources import Resource, annotate_origin, read_resources
from .trace import Trace

_STRING = gotypes.Scalar("string")
IAM_ARGS = gotypes.Struct("IAMPolicyGeneratorPlugin", {
    "cloud": gotypes.Scalar("types.Cloud"),
    "kubernetesService": gotypes.Struct("KubernetesService",
                                        {"name": _STRING, "namespace": _STRING}),
    "serviceAccount": gotypes.Struct("ServiceAccount",
                                     {"name": _STRING, "projectId": _STRING})})

_GKE = """
apiVersion: v1
kind: ServiceAccount
metadata:
  annotations:
    iam.gke.io/gcp-service-account: {account}@{project}.iam.gserviceaccount.com
  name: {name}
"""


def iam_policy(value: dict, kust: Kustomization, trace: Trace | None, state: SchemaState,
               origin: tuple[str, dict] | None = None) -> Any:
    """The IAMPolicyGenerator ``value`` configures (a generator plugin)."""
    try:
        args = gotypes.decode(value, IAM_ARGS, strict=False)
    except gotypes.GoDecodeError as err:
        raise KubeError(f"error unmarshaling JSON: while decoding JSON: {err.message}",
                        code=KUSTOMIZE_ERROR) from None
    cloud = args.get("cloud") or ""
    service = args.get("kubernetesService") or {}
    account = args.get("serviceAccount") or {}

    def generate(resmap: ResMap) -> None:
        if cloud != "gke":
            raise KubeError(f"cloud provider {cloud} not supported yet", code=KUSTOMIZE_ERROR)
        text = _GKE.format(account=account.get("name") or "",
                           project=account.get("projectId") or "",
                           name=service.get("name") or "")
        if service.get("namespace"):
            text += f"\n  namespace: {service['namespace']}"
        try:
            made: list[Resource] = read_resources(text, kust.file)
        except KubeError as err:  # kustomize parses the text alone: go-yaml's words only
            raise KubeError(err.message.removeprefix("MalformedYAMLError: "),
                            code=KUSTOMIZE_ERROR) from None
        if origin is not None:
            for resource in made:
                annotate_origin(resource, {"configuredIn": origin[0], "configuredBy": origin[1]})
        absorb_all(resmap, made)
    return generate


def hash_transformer(value: dict, kust: Kustomization, trace: Trace | None,
                     state: SchemaState) -> Any:
    """A HashTransformer (its configuration holds nothing it reads)."""
    def transform(resmap: ResMap) -> None:
        for resource in resmap.resources:
            if resource.generated and resource.generated.needs_hash:
                resource.store_previous_id()
                resource.set_name(f"{resource.name}-{content_hash(resource.value)}")
    return transform
