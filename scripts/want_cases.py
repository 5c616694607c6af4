"""The cases of the page's "write the patch" mode (object as it is, object as wanted),
shared by ``scripts/record_web_want.py`` and ``tests/test_web_wantmode.py``."""

from __future__ import annotations

DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
    tier: front
spec:
  replicas: 2
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: app
        image: registry.example/app:1.4
        args: ["--port=8080", "--verbose"]
        env:
        - name: MODE
          value: prod
        - name: DEBUG
          value: "0"
        ports:
        - containerPort: 8080
          name: http
      - name: metrics
        image: registry.example/metrics:0.9
      tolerations:
      - key: dedicated
        operator: Equal
        value: web
        effect: NoSchedule
"""

SERVICE = """apiVersion: v1
kind: Service
metadata:
  name: dns
  finalizers:
  - a.example/one
  - b.example/two
spec:
  selector:
    app: dns
  ports:
  - name: dns-tcp
    port: 53
    protocol: TCP
  - name: dns-udp
    port: 53
    protocol: UDP
  - name: metrics
    port: 9153
"""

WIDGET = """apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
spec:
  size: 3
  parts:
  - name: a
    count: 1
  - name: b
    count: 2
"""


def _edit(text: str, *pairs: tuple[str, str]) -> str:
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


CASES = [
    ("image-bumped", DEPLOYMENT, _edit(DEPLOYMENT, ("app:1.4", "app:1.5"))),
    ("container-removed", DEPLOYMENT, _edit(DEPLOYMENT, (
        "      - name: metrics\n        image: registry.example/metrics:0.9\n", ""))),
    ("container-added-first", DEPLOYMENT, _edit(DEPLOYMENT, (
        "      containers:\n", "      containers:\n      - name: init-log\n"
        "        image: busybox:1.36\n"))),
    ("replicas-removed-label-removed", DEPLOYMENT, _edit(
        DEPLOYMENT, ("  replicas: 2\n", ""), ("    tier: front\n", ""))),
    ("env-changed-arg-changed", DEPLOYMENT, _edit(
        DEPLOYMENT, ('value: "0"', 'value: "1"'), ('"--verbose"', '"--quiet"'))),
    ("env-reordered", DEPLOYMENT, _edit(
        DEPLOYMENT, ("        - name: MODE\n          value: prod\n", ""),
        ('          value: "0"\n', '          value: "0"\n        - name: MODE\n'
                                   '          value: prod\n'))),
    ("toleration-added", DEPLOYMENT, _edit(DEPLOYMENT, (
        "        effect: NoSchedule\n", "        effect: NoSchedule\n      - key: spot\n"
        "        operator: Exists\n"))),
    ("service-port-removed", SERVICE, _edit(SERVICE, (
        "  - name: dns-udp\n    port: 53\n    protocol: UDP\n", ""))),
    ("finalizer-removed", SERVICE, _edit(SERVICE, ("  - a.example/one\n", ""))),
    ("custom-resource", WIDGET, _edit(WIDGET, ("count: 2", "count: 5"), ("size: 3", "size: 4"))),
    ("unchanged", DEPLOYMENT, DEPLOYMENT),
]
