"""Reading and printing as kubectl does.

``reader`` turns the YAML or JSON text of an object or a patch into values (with the
type notes of YAML 1.1 surprises), ``writer`` prints ``-o json`` and ``-o yaml``, and
``unstructured`` is kubectl's decoder of objects (kind checks, number forms, lists).
"""
