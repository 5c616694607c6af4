"""How kubectl's Go code behaves, for byte-identical results and messages.

``json`` (Go's ``encoding/json`` writing and kubectl's number model), ``jsondecode``
(Go's scanner errors and lenient decoding), ``yaml`` (go-yaml v2's resolution, key order
and quoting rules) and ``runtime`` (slice capacity, map iteration, panics).  Nothing here
imports anything else from ``cfgpatch.kube``.
"""
