#!/usr/bin/env bash
# Regenerates imports/ with `cdk8s import`, one module per CRD (they share the group argoproj.io, so each
# needs its own module name). Sources: the URLs in cdk8s.yaml, or the same files in a local folder:
#   npm run import                                  # from the upstream URLs in cdk8s.yaml (needs internet)
#   npm run import -- ../shared/crds/argo-rollouts-v1.9.1   # offline, from local copies of the same files
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
local_dir="${1:-}"
specs=$(sed -n 's/^  - \([a-z]*\):=\(.*\)$/\1 \2/p' cdk8s.yaml)
[ -n "$specs" ] || { echo "cdk8s.yaml lists no imports" >&2; exit 2; }
rm -rf imports
while read -r name url; do
  source="$url"
  if [ -n "$local_dir" ]; then
    source="$local_dir/$(basename "$url")"
    [ -f "$source" ] || { echo "$source: missing; expected the file named in cdk8s.yaml ($url)" >&2; exit 2; }
  fi
  echo "import $name from $source"
  npx cdk8s import --no-save --check-upgrade=false --language typescript --output imports "$name:=$source" >/dev/null
done <<<"$specs"
