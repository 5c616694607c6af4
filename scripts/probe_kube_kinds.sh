#!/bin/bash
# Record which apiVersion/kind pairs a kubectl binary can strategic-merge locally.
# usage: scripts/probe_kube_kinds.sh KUBECTL KINDS_TSV > scripts/data/kubectl-1.32-kinds.tsv
# KINDS_TSV is ../shared/k8s/kinds.tsv; the meta kinds every group registers are added.
set -u
KC=${1:?kubectl binary}; KINDS=${2:?kinds.tsv}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
{
  awk -F'\t' 'NR>2{print $1, $2}' "$KINDS"
  for gv in $(awk -F'\t' 'NR>2{print $1}' "$KINDS" | sort -u); do
    for k in WatchEvent ListOptions GetOptions DeleteOptions CreateOptions UpdateOptions \
             PatchOptions Status APIVersions; do echo "$gv $k"; done
  done
} | while read -r av kind; do
  printf 'apiVersion: %s\nkind: %s\nmetadata:\n  name: x\n' "$av" "$kind" > "$tmp/obj.yaml"
  err=$("$KC" patch --local -f "$tmp/obj.yaml" --type strategic -p '{"metadata":{"labels":{"c":"d"}}}' \
        -o json 2>&1 >/dev/null)
  case "$err" in *"strategic merge patch is not supported"*) ;; *) printf '%s\t%s\n' "$av" "$kind";; esac
done
