// The examples menu: the classic traps, each with the type that shows it best.
// Objects are YAML (what people paste); patches are what they would pass to -p.

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  annotations:
    kubernetes.io/change-cause: initial rollout
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      tolerations:
      - {key: dedicated, operator: Equal, value: web, effect: NoSchedule}
      - {key: spot, operator: Exists, effect: NoExecute}
      containers:
      - name: app
        image: nginx:1.25
        ports:
        - {containerPort: 80, name: http}
        env:
        - {name: LOG_LEVEL, value: info}
      - name: metrics
        image: statsd:v0.26
`;

export const EXAMPLES = [
  {
    id: "merge-one-container",
    title: "One container patched with a merge patch",
    type: "merge",
    object: DEPLOYMENT,
    patch: `spec:
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.27
`,
    note:
      "A merge patch (RFC 7386) treats the containers list as one value: the metrics " +
      "container and the env of app are gone. Strategic merge keys containers by name " +
      "and only changes the image.",
  },
  {
    id: "toleration-added",
    title: "A toleration added",
    type: "strategic",
    object: DEPLOYMENT,
    patch: `spec:
  template:
    spec:
      tolerations:
      - {key: gpu, operator: Exists, effect: NoSchedule}
`,
    note:
      "tolerations has no merge key, so even the strategic default replaces the list: " +
      "the two tolerations already there are dropped. To add one, restate the whole list " +
      "or use a JSON patch with add /spec/template/spec/tolerations/-.",
  },
  {
    id: "finalizers-emptied",
    title: "Finalizers emptied",
    type: "strategic",
    object: `apiVersion: v1
kind: Namespace
metadata:
  name: stuck
  finalizers: [a.example/one, b.example/two]
spec:
  finalizers: [kubernetes]
`,
    patch: `{"metadata": {"finalizers": []}}
`,
    note:
      "metadata.finalizers is a set under strategic merge: an empty list adds nothing and " +
      "removes nothing, and kubectl still reports success. --type=merge empties it; a " +
      "strategic null or $deleteFromPrimitiveList also removes entries.",
  },
  {
    id: "annotation-slash",
    title: "An annotation with a / in its key",
    type: "json",
    object: `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: shop
  annotations:
    kubernetes.io/ingress.class: nginx
spec:
  defaultBackend:
    service: {name: web, port: {number: 80}}
`,
    patch: `[
  {"op": "replace",
   "path": "/metadata/annotations/kubernetes.io/ingress.class",
   "value": "traefik"}
]
`,
    note:
      "In a JSON Pointer a / separates keys, so this path asks for a key kubernetes.io " +
      "holding a key ingress.class. Inside a key, / is written ~1 and ~ is written ~0.",
  },
  {
    id: "service-port",
    title: "A Service port (TCP and UDP on one number)",
    type: "strategic",
    object: `apiVersion: v1
kind: Service
metadata:
  name: dns
  namespace: kube-system
spec:
  selector: {app: dns}
  ports:
  - {name: dns-tcp, port: 53, protocol: TCP, targetPort: 53}
  - {name: dns-udp, port: 53, protocol: UDP, targetPort: 53}
  - {name: metrics, port: 9153, protocol: TCP}
`,
    patch: `spec:
  ports:
  - {port: 53, protocol: UDP, targetPort: 5353}
`,
    note:
      "Service ports merge on port alone. The patch meant the UDP entry, but it lands " +
      "on the first entry with port 53, the TCP one, which now says UDP.",
  },
  {
    id: "custom-resource",
    title: "A custom resource",
    type: "strategic",
    object: `apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata:
  name: main
  namespace: monitoring
spec:
  replicas: 1
  containers:
  - {name: prometheus, image: "prom/prometheus:v2.53.0"}
  - {name: config-reloader, image: "reloader:v0.75"}
`,
    patch: `spec:
  containers:
  - name: prometheus
    image: prom/prometheus:v2.54.1
`,
    note:
      "kubectl has no merge keys for a custom resource: kubectl patch refuses the " +
      "strategic type, and a merge patch replaces the containers list.",
  },
  {
    id: "failing-test",
    title: "A failing test guard",
    type: "json",
    object: DEPLOYMENT,
    patch: `[
  {"op": "test", "path": "/spec/replicas", "value": 3},
  {"op": "replace", "path": "/spec/template/spec/containers/0/image", "value": "nginx:1.27"}
]
`,
    note:
      "A JSON patch is all or nothing: the test guard fails (there are 2 replicas, not 3), " +
      "so the image is not changed either.",
  },
];
