"""Reading objects and patches, and printing results, exactly as ``kubectl patch`` does.

Interface (used by ``kube/__init__.py`` and the CLI):

``load_object(text, source="-") -> (obj, notes)``
    The ``-f`` file.  Text whose first non-space character is ``{`` is read as JSON
    (Go ``encoding/json`` rules: duplicate keys, last one wins); anything else as YAML
    1.1 the way kubectl's YAML library resolves plain scalars (``on``/``yes``/``y`` are
    ``true``, ``010`` is 8, ``0x1F`` is 31, ``1e3`` is 1000, ``1_000`` is 1000, dates stay
    strings; map keys are resolved too and turned back into strings: ``yes:`` becomes
    the key ``"true"``).  Numbers then take kubectl's form: an integer within int64 is
    an ``int``, anything else a ``float``.  More than one document raises ``KubeError``
    (kubectl would patch and print each in turn; cfgpatch handles one object).
    ``obj`` keeps ``metadata.managedFields``: kubectl drops it only when printing.

``load_patch(text, patch_type) -> (patch, notes)``
    The ``-p`` / ``--patch-file`` text.  Unless its first non-space character is ``{``
    it is YAML, converted to JSON first (so ``[...]`` JSON patches go through YAML too,
    and ``1.0`` becomes ``1``).  JSON text that kubectl would refuse raises
    ``KubeError`` with the message kubectl prints for that ``patch_type``.

``dump(obj, fmt) -> str``
    ``fmt`` is ``"json"`` (kubectl's ``-o json``: 4-space indent, sorted keys, Go's
    escaping of ``<``, ``>``, ``&``, U+2028/9, Go float formatting, final newline) or
    ``"yaml"`` (``-o yaml``: go-yaml v2 style, natural key order such as ``k9`` before
    ``k10``, quoting of strings that would read as something else, 80-column folding).
    ``metadata.managedFields`` is left out, as kubectl does.

``decode_result(obj) -> obj``
    What kubectl does with the patched document before printing it: a result that is
    not an object, or has no string ``kind``, raises kubectl's ``KubeError``; numbers are
    brought back to kubectl's int64/float64 form.

``notes`` is a list of :class:`TypeNote`: one per unquoted YAML scalar (value or key)
that kubectl reads as something other than the string that was written.  ``pointer``
is the RFC 6901 pointer of the value (for a key: of the member it names, after
conversion), ``written`` the text as written, ``value`` what kubectl made of it
(for a key, the key string it became) and ``where`` is ``"value"`` or ``"key"``.
"""
