#!/bin/bash
# Ask a kubectl binary which apiVersion/kind pairs it can strategic-merge locally, and
# what it answers to a metadata.labels patch on a bare object of each kind.
# usage: scripts/probe_kube_kinds.sh KUBECTL KINDS_TSV > scripts/data/kubectl-1.32-kinds.tsv
# KINDS_TSV is ../shared/k8s/kinds.tsv; the meta kinds every group registers are added.
# Output: apiVersion<TAB>kind<TAB>"ok" or kubectl's error (kinds it does not know are left out).
set -u
KC=${1:?kubectl binary}; KINDS=${2:?kinds.tsv}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "# kinds kubectl $("$KC" version --client -o json | sed -n 's/.*"gitVersion": "\(.*\)".*/\1/p') knows: patch {\"metadata\":{\"labels\":{\"c\":\"d\"}}} on {apiVersion, kind, metadata: {name: x, labels: {a: b}}}"
{
  awk -F'\t' 'NR>2{print $1, $2}' "$KINDS"
  for gv in $(awk -F'\t' 'NR>2{print $1}' "$KINDS" | sort -u); do
    for k in WatchEvent ListOptions GetOptions DeleteOptions CreateOptions UpdateOptions \
             PatchOptions Status APIVersions; do echo "$gv $k"; done
  done
} | while read -r av kind; do
  printf 'apiVersion: %s\nkind: %s\nmetadata:\n  name: x\n  labels: {a: b}\n' "$av" "$kind" \
    > "$tmp/obj.yaml"
  err=$("$KC" patch --local -f "$tmp/obj.yaml" --type strategic \
        -p '{"metadata":{"labels":{"c":"d"}}}' -o json 2>&1 >/dev/null)
  case "$err" in
    *"strategic merge patch is not supported"*) ;;
    "") printf '%s\t%s\tok\n' "$av" "$kind";;
    *) printf '%s\t%s\t%s\n' "$av" "$kind" "$(echo "$err" | head -1 | sed 's/^error: //')";;
  esac
done
