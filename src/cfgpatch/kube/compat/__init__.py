"""Go tools' exact words for what cfgpatch's readers find.

The readers (``kube/io``) find problems as values: a YAML syntax error is a
:class:`~cfgpatch.kube.compat.goyaml.YamlProblem` (what, where: stage, problem, line,
column).  This package turns such values into the text kubectl, go-yaml and kustomize
print, byte for byte, so that the rules for reading and the wording of refusals live
apart.  Standard library only.

* ``goyaml``: go-yaml v2's (kubectl) and v3's (kustomize's kyaml) ``yaml: line N: ...``
  for a YAML syntax error.
"""
