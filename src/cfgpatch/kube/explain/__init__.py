"""Explanations, read-only over the engines and views: what a patch changed
(``changes``) and the findings with stable codes (``catalogue`` lists them, ``findings``
runs the detectors of ``strategic``, ``merge`` and ``jsonpatch``, over the walks of
``walk``; ``custom_resources`` and ``kustomize`` compare with other tools)."""
