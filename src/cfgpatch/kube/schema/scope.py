"""Which built-in kinds have no namespace (cluster-scoped), from the fact tables.

``kubectl apply`` writes the namespace into an object of a namespaced kind that does
not name one (``default``, or ``-n``), so it shows up in the last-applied annotation;
a cluster-scoped object gets none.  The list (``data/scopes.json``) is every kind
``kinds.tsv`` marks ``Cluster``.  A kind it does not know (a custom resource) counts as
namespaced unless the caller says otherwise.

>>> is_cluster_scoped("v1", "Namespace"), is_cluster_scoped("apps/v1", "Deployment")
(True, False)
"""

from __future__ import annotations

import json
from functools import lru_cache

from ...package_data import read_text


@lru_cache(maxsize=1)
def _cluster_kinds() -> frozenset:
    table = json.loads(read_text(__name__, "scopes.json"))
    return frozenset((api_version, kind) for api_version, kind in table["cluster_scoped"])


def is_cluster_scoped(api_version: str, kind: str) -> bool:
    """Whether ``kind`` in ``api_version`` is a cluster-scoped built-in kind."""
    return (api_version, kind) in _cluster_kinds()
