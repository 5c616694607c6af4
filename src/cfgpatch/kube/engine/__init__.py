"""What kubectl does with a patch: strategic merge (``strategic``, with the list order
of ``listorder``), its JSON Patch (``jsonpatch``) and its JSON merge patch
(``mergepatch``).  Results and kubectl's errors, never explanations."""
