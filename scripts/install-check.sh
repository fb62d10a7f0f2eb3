#!/usr/bin/env bash
# What a user gets: packs this package with `npm run pack`, installs the tarball with `npm install <tarball>` into an
# empty project outside the repository, and runs the installed `glidepath` there on a copy of clusters/.
# .ci/run runs it. Fails when the tarball ships something it should not (sources, tests) or lacks what runs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cd "$root"
tarball="$(npm run --silent pack -- --pack-destination "$work" | tail -n 1)"
version="$(node -p "require('./package.json').version")"

# Every path the tarball holds must be under a folder of package.json's "files" (or one npm always adds).
unexpected="$(tar -tzf "$tarball" | sed 's#^package/##' | grep -Ev '^(bin|bundle|examples|lib|schema)/|^(package\.json|README\.md|LICENSE)$' || true)"
if [ -n "$unexpected" ]; then
  echo "install-check: the tarball ships files it should not:" >&2
  echo "$unexpected" >&2
  exit 1
fi

# The bundle takes only the version from package.json: its scripts and dev dependencies are no part of what runs.
if tar -xzOf "$tarball" --wildcards 'package/bundle/*' | grep -c 'devDependencies' > /dev/null; then
  echo "install-check: the bundle carries package.json's devDependencies: import only the fields it uses" >&2
  exit 1
fi

project="$work/project"
mkdir -p "$project/clusters"
cp "$root"/clusters/*.yaml "$project/clusters/"
cd "$project"
echo '{ "name": "glidepath-install-check", "private": true }' > package.json
npm install --no-audit --no-fund "$tarball" 2> "$work/install.err"
if grep -qi 'warn' "$work/install.err"; then
  echo "install-check: npm install <tarball> printed warnings:" >&2
  cat "$work/install.err" >&2
  exit 1
fi

installed="$(npx --no-install glidepath --version)"
if [ "$installed" != "$version" ]; then
  echo "install-check: glidepath --version printed \"$installed\", package.json says $version" >&2
  exit 1
fi
npx --no-install glidepath help > /dev/null
npx --no-install glidepath synth --clusters ./clusters --out ./out
for file in clusters/*.yaml; do
  name="$(basename "$file" .yaml)"
  test -s "out/$name/kustomization.yaml" || { echo "install-check: synth wrote no out/$name/kustomization.yaml" >&2; exit 1; }
done
npx --no-install glidepath verify --clusters ./clusters
npx --no-install glidepath synth --clusters ./clusters --out ./out --check
# Day one in an empty repository: init writes the example, which renders and verifies as it is.
fresh="$work/fresh"
mkdir -p "$fresh"
cd "$fresh"
echo '{ "name": "glidepath-day-one", "private": true }' > package.json
npm install --no-audit --no-fund "$tarball" 2> "$work/install-fresh.err"
npx --no-install glidepath init --cluster prod
head -n 1 clusters/prod.yaml | grep -qx '# yaml-language-server: $schema=../node_modules/glidepath-gitops/schema/cluster.schema.json' \
  || { echo "install-check: init's modeline does not point at the installed schema" >&2; head -n 2 clusters/prod.yaml >&2; exit 1; }
npx --no-install glidepath synth
test -s dist/prod/kustomization.yaml || { echo "install-check: synth after init wrote no dist/prod/kustomization.yaml" >&2; exit 1; }
npx --no-install glidepath verify
if npx --no-install glidepath init --cluster prod 2> "$work/init-again.err"; then
  echo "install-check: a second init overwrote clusters/prod.yaml" >&2
  exit 1
fi
cd "$project"

node --input-type=module -e "import { veridorCanarySteps } from 'glidepath-gitops/canary-steps'; if (veridorCanarySteps({ canaryUrl: 'http://a:8080' }).length < 2) process.exit(1);"
# A TypeScript project finds the library's types with every moduleResolution TypeScript 5 has: node16, nodenext and
# bundler read the package's exports (from an ES module: the library is one), node10 (the old "node") its
# typesVersions.
consumer="import { veridorCanarySteps } from 'glidepath-gitops/canary-steps'; veridorCanarySteps({ canaryUrl: 'x' });"
echo "$consumer" > consumer.mts
echo "$consumer" > consumer.ts
for check in node16:node16:mts nodenext:nodenext:mts esnext:bundler:mts commonjs:node10:ts; do
  IFS=: read -r module resolution extension <<< "$check"
  "$root/node_modules/typescript/bin/tsc" --noEmit --strict --module "$module" --moduleResolution "$resolution" \
    "consumer.$extension" \
    || { echo "install-check: TypeScript with moduleResolution $resolution does not find the library's types" >&2; exit 1; }
done
echo "install-check: glidepath $version installed from $(basename "$tarball") into an empty project: synth, verify, init to synth to verify in an empty project, canary-steps (with its types) work"
