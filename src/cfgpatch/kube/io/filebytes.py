"""The text kubectl reads from the bytes of a manifest file (``-f FILE``, ``-f -``).

kubectl's file visitor does not hand a file's bytes to its YAML and JSON decoders as
they are: it reads them through a Unicode transformer that looks for a byte order mark
at the very start.

* ``FF FE`` or ``FE FF``: the file is UTF-16 (little- or big-endian); the mark is
  dropped and the rest decoded as UTF-16.
* ``EF BB BF``: the mark is dropped and the rest passed on as it is.
* no mark: UTF-8.

Bytes that are not valid in the decoded encoding never stop the reading: each maximal
invalid sequence becomes one U+FFFD, as Python's ``"replace"`` error handler does for
UTF-8 and UTF-16 (an unpaired surrogate, a last odd byte). So a Latin-1 ``é`` in a
ConfigMap comes out as ``�`` and the patch goes on, and a file that Windows PowerShell
saved as UTF-16 is read like any other. UTF-16 without a mark is read as UTF-8, where
its zero bytes are control characters the YAML reader refuses.

After a UTF-8 mark nothing is replaced: the YAML reader meets the raw bytes and refuses
them with go-yaml's words (``yaml: incomplete UTF-8 octet sequence``), while a JSON
document takes them (its strings print U+FFFD). Those bytes are kept here as Python's
``surrogateescape`` characters, which the YAML reader turns back into the bytes
(:func:`cfgpatch.kube.io.patch_text.as_bytes`). All of this was recorded from kubectl
1.27-1.33 (``tests/data/kube/file-bytes``).
"""

from __future__ import annotations

import codecs

#: The UTF-16 byte order marks (kubectl's reader and go-yaml's), and the codec of the rest.
UTF16_MARKS = ((codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))


def decode(data: bytes) -> str:
    """The text kubectl's file reader gives for ``data``.

    >>> decode(b"a: caf\\xe9")
    'a: caf\\ufffd'
    >>> decode(codecs.BOM_UTF16_LE + "a: é".encode("utf-16-le"))
    'a: é'
    >>> decode(b"\\xef\\xbb\\xbfa: b")
    'a: b'
    """
    if data.startswith(codecs.BOM_UTF8):
        return data[len(codecs.BOM_UTF8):].decode("utf-8", "surrogateescape")
    for mark, codec in UTF16_MARKS:
        if data.startswith(mark):
            return data[len(mark):].decode(codec, "replace")
    return data.decode("utf-8", "replace")
