#!/usr/bin/env bash
# The README's "Adding a cluster", done for real in a temporary clone of HEAD: it must keep CI green.
#
#   1. staging, a copy of prod (name and gitops.path changed, as step 1 says), and edge, another copy of prod;
#      synth and verify each, npm run test:update, CI=true npm test.
#   2. edge switches Argo CD to `delivery: helm-values` (its argocd-notifications.k8s.yaml becomes a helm values
#      file) and staging is removed again: npm run test:update must remove, and name, the snapshots of what is no
#      longer rendered; CI=true npm test.
#
# .ci/run runs it. It changes nothing outside the temporary folder; ../shared is linked beside the clone.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/glidepath-adding-a-cluster-XXXXXX")"
trap 'rm -rf "$WORK"' EXIT
if [ -d "$ROOT/../shared" ]; then ln -s "$(cd "$ROOT/../shared" && pwd)" "$WORK/shared"; fi

step() { printf '\n== %s\n' "$*"; }
fail() {
  printf 'check-adding-a-cluster: %s\n' "$*" >&2
  exit 1
}
# Copies clusters/prod.yaml to clusters/NAME.yaml with `name: NAME` and `gitops.path: clusters/NAME/glidepath`.
copy_prod() {
  sed -e "s/^name: prod\$/name: $1/" -e "s#^  path: clusters/prod/glidepath\$#  path: clusters/$1/glidepath#" clusters/prod.yaml >"clusters/$1.yaml"
  grep -qx "name: $1" "clusters/$1.yaml" && grep -qx "  path: clusters/$1/glidepath" "clusters/$1.yaml" ||
    fail "clusters/prod.yaml no longer has the lines 'name: prod' and '  path: clusters/prod/glidepath' this check edits"
}
synth_and_verify() {
  for cluster in "$@"; do
    npm run --silent synth -- --cluster "$cluster"
    npm run --silent verify -- --cluster "$cluster"
  done
}

step "a clone of $(git -C "$ROOT" rev-parse --short HEAD)"
git clone --quiet --no-hardlinks "$ROOT" "$WORK/glidepath"
cd "$WORK/glidepath"
git checkout --quiet --detach "$(git -C "$ROOT" rev-parse HEAD)"
npm ci --no-audit --no-fund

step "1. add staging and edge, copies of prod"
copy_prod staging
copy_prod edge
synth_and_verify staging edge
npm run test:update
for cluster in staging edge; do
  [ -f "test/__snapshots__/$cluster/kustomization.yaml" ] || fail "npm run test:update wrote no snapshots into test/__snapshots__/$cluster/"
done
CI=true npm test

step "2. edge delivers Argo CD's notifications as helm values; staging goes"
sed -i 's/^argocd:$/argocd:\n  delivery: helm-values/' clusters/edge.yaml
grep -q '^  delivery: helm-values$' clusters/edge.yaml || fail "could not set argocd.delivery in clusters/edge.yaml"
rm clusters/staging.yaml
synth_and_verify edge
update_log="$WORK/test-update.log"
npm run test:update 2>&1 | tee "$update_log"
[ ! -e test/__snapshots__/edge/argocd-notifications.k8s.yaml ] || fail "npm run test:update left test/__snapshots__/edge/argocd-notifications.k8s.yaml, which edge no longer renders"
[ ! -e test/__snapshots__/staging ] || fail "npm run test:update left test/__snapshots__/staging/ of a cluster that no longer exists"
for removed in test/__snapshots__/edge/argocd-notifications.k8s.yaml test/__snapshots__/staging/; do
  grep -qF "$removed" "$update_log" || fail "npm run test:update removed $removed without naming it"
done
CI=true npm test

step "adding a cluster keeps CI green"
