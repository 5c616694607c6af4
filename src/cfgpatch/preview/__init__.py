"""``cfgpatch kube preview``: what a change to a GitOps repository does to the cluster.

Runs git (outside the core).  See docs/preview.md.
"""
