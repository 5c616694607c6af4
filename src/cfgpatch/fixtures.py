"""Big, realistic test documents from a few numbers: the ``gen`` and ``mutate`` operations.

``generate({"n": N, "seed": S})`` builds a gateway route table
``{"service": ..., "routes": [N route objects]}`` in which routes repeat a lot:
most are drawn from a small pool of route shapes (so many elements are equal),
and the rest are near-copies that differ in one field (a port, a timeout, a
method list, or only the number kind of the weight: ``1`` vs ``1.0``).

``mutate(doc, {"seed": S, "edits": E})`` returns a copy of ``doc`` with ``E``
pseudo-random edits to its routes, each one of: delete a route, insert a route,
modify one field of a route, move a route elsewhere.  ``doc`` is not changed
(untouched routes are shared with it, as the service's versions are).

Both are deterministic from the seed through a small SplitMix64 generator of our
own (64-bit integer arithmetic only: no ``random`` module, no hash or set order),
so every Python version, and Pyodide, builds the same bytes.
"""

from __future__ import annotations

from typing import Any

from .errors import INVALID_ARGUMENTS, InvalidInput, LimitExceeded

#: Largest route table ``generate`` builds (a few hundred MB of Python objects).
MAX_ROUTES = 2_000_000
#: Most edits one ``mutate`` makes.
MAX_EDITS = 1_000_000

_MASK = (1 << 64) - 1
_SERVICES = ("users", "orders", "billing", "search", "auth", "catalog", "cart",
             "payments", "inventory", "reviews", "shipping", "notify")
_METHODS = (("GET",), ("GET", "POST"), ("GET", "PUT", "DELETE"), ("POST",), ("GET", "HEAD"))
_TIMEOUTS = (500, 1000, 2000, 3000, 5000, 10000)
_WEIGHTS = (1, 1.0, 0.5, 2, 0.25)
_SUFFIXES = ("", "/{id}", "/search", "/{id}/items", "/export", "/health")


class SplitMix64:
    """A tiny deterministic pseudo-random generator (SplitMix64).

    >>> rng = SplitMix64(1)
    >>> [rng.below(10) for _ in range(5)]
    [5, 9, 0, 5, 1]
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """An integer in ``0 .. bound-1`` (``bound`` > 0)."""
        return self.next() % bound

    def pick(self, items: tuple | list) -> Any:
        return items[self.below(len(items))]


#: The members of ``generate``'s and ``mutate``'s argument objects (all required).
GEN_KEYS = ("n", "seed")
MUTATE_KEYS = ("seed", "edits")


def check_params(params: Any, keys: tuple[str, ...]) -> dict[str, int]:
    """``params`` if it has exactly the members ``keys``, each a non-negative integer.

    Anything else (not an object, a missing or unknown member, a negative, boolean
    or non-integer value) is ``invalid arguments``.
    """
    if type(params) is not dict:
        raise InvalidInput("arguments must be an object", code=INVALID_ARGUMENTS)
    for key, value in params.items():
        if key not in keys:
            raise InvalidInput(
                f"unknown argument {key!r} (expected {', '.join(keys)})", code=INVALID_ARGUMENTS
            )
        if type(value) is not int or value < 0:
            raise InvalidInput(f"{key} must be a non-negative integer", code=INVALID_ARGUMENTS)
    missing = [key for key in keys if key not in params]
    if missing:
        raise InvalidInput(f"missing argument {', '.join(missing)} (every one of "
                           f"{', '.join(keys)} is needed)", code=INVALID_ARGUMENTS)
    return {key: params[key] for key in keys}


# A route "shape" is a tuple; _build turns it into a fresh object every time, so
# equal routes are equal values but never the same object (as after parsing).
def _random_shape(rng: SplitMix64) -> tuple:
    service = rng.pick(_SERVICES)
    return (
        f"/api/v{1 + rng.below(3)}/{service}{rng.pick(_SUFFIXES)}",
        service,
        8080 + rng.below(4),
        rng.below(2) == 1,
        rng.pick(_METHODS),
        rng.pick(_TIMEOUTS),
        rng.below(4),
        rng.pick(_WEIGHTS),
    )


def _variant(shape: tuple, rng: SplitMix64) -> tuple:
    """The same route with one field changed."""
    field = rng.below(5)
    out = list(shape)
    if field == 0:
        out[2] = 9000 + rng.below(50)
    elif field == 1:
        out[4] = rng.pick(_METHODS)
    elif field == 2:
        out[5] = rng.pick(_TIMEOUTS) + 1
    elif field == 3:
        out[6] = 3 + rng.below(5)
    else:  # only the number kind changes: 1 <-> 1.0, 2 <-> 2.0
        weight = out[7]
        out[7] = float(weight) if type(weight) is int else weight * 2
    return tuple(out)


def _build(shape: tuple) -> dict:
    path, service, port, tls, methods, timeout, retries, weight = shape
    return {
        "path": path,
        "backend": {"service": service, "port": port, "tls": tls},
        "methods": list(methods),
        "timeout_ms": timeout,
        "retries": retries,
        "weight": weight,
    }


def _shapes(rng: SplitMix64, n: int) -> list[tuple]:
    pool = [_random_shape(rng) for _ in range(8 + n // 64)]
    shapes = []
    for _ in range(n):
        shape = rng.pick(pool)
        shapes.append(shape if rng.below(10) < 7 else _variant(shape, rng))
    return shapes


def generate(params: Any) -> dict:
    """A route table of ``n`` routes from ``seed`` (``{"n": N, "seed": S}``).

    >>> doc = generate({"n": 3, "seed": 7})
    >>> doc["service"], len(doc["routes"]), sorted(doc["routes"][0])
    ('gateway-7', 3, ['backend', 'methods', 'path', 'retries', 'timeout_ms', 'weight'])
    """
    args = check_params(params, GEN_KEYS)
    if args["n"] > MAX_ROUTES:
        raise LimitExceeded(f"n is at most {MAX_ROUTES}")
    rng = SplitMix64(args["seed"])
    return {
        "service": f"gateway-{args['seed'] % 1000}",
        "routes": [_build(shape) for shape in _shapes(rng, args["n"])],
    }


def _shape_of(route: Any) -> tuple | None:
    """The shape of a generated route (``None`` for anything else)."""
    try:
        backend = route["backend"]
        return (route["path"], backend["service"], backend["port"], backend["tls"],
                tuple(route["methods"]), route["timeout_ms"], route["retries"], route["weight"])
    except (KeyError, TypeError):
        return None


def _edit(routes: list, rng: SplitMix64) -> None:
    kind = rng.below(4) if routes else 1
    if kind == 0:  # delete
        del routes[rng.below(len(routes))]
    elif kind == 1:  # insert: a copy or near-copy of an existing route, or a new one
        shape = _shape_of(routes[rng.below(len(routes))]) if routes else None
        if shape is None:
            shape = _random_shape(rng)
        elif rng.below(2):
            shape = _variant(shape, rng)
        routes.insert(rng.below(len(routes) + 1), _build(shape))
    elif kind == 2:  # modify one field
        index = rng.below(len(routes))
        shape = _shape_of(routes[index])
        routes[index] = _build(_variant(shape, rng) if shape else _random_shape(rng))
    else:  # move
        route = routes.pop(rng.below(len(routes)))
        routes.insert(rng.below(len(routes) + 1), route)


def mutate(doc: Any, params: Any) -> dict:
    """A copy of ``doc`` with ``edits`` random route edits from ``seed``.

    >>> a = generate({"n": 50, "seed": 1})
    >>> b = mutate(a, {"seed": 2, "edits": 5})
    >>> a == generate({"n": 50, "seed": 1}), b == mutate(a, {"seed": 2, "edits": 5})
    (True, True)
    """
    args = check_params(params, MUTATE_KEYS)
    if type(doc) is not dict or type(doc.get("routes")) is not list:
        raise InvalidInput("mutate needs a document with a \"routes\" array",
                           code=INVALID_ARGUMENTS)
    if args["edits"] > MAX_EDITS:
        raise LimitExceeded(f"edits is at most {MAX_EDITS}")
    rng = SplitMix64(args["seed"] ^ 0x5DEECE66D)
    routes = list(doc["routes"])
    for _ in range(args["edits"]):
        _edit(routes, rng)
    return {**doc, "routes": routes}
