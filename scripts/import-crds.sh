#!/usr/bin/env bash
# Regenerates imports/ with `cdk8s import`, one module per CRD (they share the group argoproj.io, so each
# needs its own module name). Sources: the URLs in cdk8s.yaml, or the same files in a local folder:
#   npm run import                                  # from the upstream URLs in cdk8s.yaml (needs internet)
#   npm run import -- ../shared/crds/argo-rollouts-v1.9.1   # offline, from local copies of the same files
# Everything is generated into a temporary folder first; imports/ is replaced only when every import worked,
# so a failure (offline, a missing file) leaves it as it was.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
local_dir="${1:-}"
specs=$(sed -n 's/^  - \([a-z]*\):=\(.*\)$/\1 \2/p' cdk8s.yaml)
[ -n "$specs" ] || { echo "cdk8s.yaml lists no imports" >&2; exit 2; }

# A run killed between the two renames below left imports/ under its old name: put it back. Any other
# imports.*.tmp is a leftover of a killed run.
shopt -s nullglob
for old in imports.*.old.tmp; do
  if [ ! -d imports ]; then mv "$old" imports; else rm -rf "$old"; fi
done
for leftover in imports.*.tmp; do rm -rf "$leftover"; done

staging=$(mktemp -d imports.XXXXXX.tmp)
trap 'rm -rf "$staging"' EXIT
while read -r name url; do
  source="$url"
  if [ -n "$local_dir" ]; then
    source="$local_dir/$(basename "$url")"
    [ -f "$source" ] || { echo "$source: missing; expected the file named in cdk8s.yaml ($url); imports/ is unchanged" >&2; exit 2; }
  fi
  echo "import $name from $source"
  if ! npx cdk8s import --no-save --check-upgrade=false --language typescript --output "$staging" "$name:=$source" >/dev/null; then
    echo "import of $name from $source failed (offline? pass a local folder of the CRD files); imports/ is unchanged" >&2
    exit 1
  fi
done <<<"$specs"
chmod 755 "$staging"
old="imports.$$.old.tmp"
[ ! -d imports ] || mv imports "$old"
mv "$staging" imports
rm -rf "$old"
