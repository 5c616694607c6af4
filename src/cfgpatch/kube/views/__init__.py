"""What other tools would do with the same patch: kustomize's merge (``kustomize``) and
server-side apply on a custom resource (``ssa``).  They return results, not findings."""
