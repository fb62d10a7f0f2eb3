/**
 * `npm run judge:expr`: builds the Go judge once per expr and sprig version of the engine release table
 * (src/notifications/engine-releases.ts, the only list of versions), runs it on the cases of ./cases.ts, compares
 * the model's values with the release's on ./value-cases.ts, and ends with `N passed, M failed` (exit 1 on any
 * failure, 2 on a setup problem).
 *
 *   npm run judge:expr                      judge every row
 *   npm run judge:expr -- --update-modfiles write the missing modfiles/<build>.mod/.sum (go get; commit them)
 *   npm run judge:expr -- --print-table     print the table as JSON
 *   npm run judge:expr -- --notes           list the oncePer errors that only log (where when is false)
 *   npm run judge:expr -- --declare argo-rollouts=1.7.0
 *       judge the shipped clusters as if they declared that release (instead of the oldest supported)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../../src/config/errors';
import { RELEASE } from '../../src/config/names';
import { ENGINE_NAMES, ENGINE_RELEASES, type Engine } from '../../src/notifications/engine-releases';
import { buildGoTool, goToolBinary, goToolCache, GoToolError, runGo } from '../go-tool.mjs';
import { buildsOf, type JudgeBuild } from './builds';
import { controlConfigMaps, expectations, notificationConfigMaps, ODD_OBJECTS, shippedClusters } from './cases';
import { agrees, valueCases } from './value-cases';

const JUDGE_DIR = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(JUDGE_DIR, '..', '..');
/** The YAML library notifications-engine parses ConfigMap keys with. */
const SIGS_YAML = 'sigs.k8s.io/yaml@v1.4.0';

interface JudgeResult {
  readonly configMap: string;
  readonly item: string;
  readonly ok: boolean;
  readonly problems?: readonly string[];
  readonly notes?: readonly string[];
}

function main(argv: readonly string[]): number {
  if (argv.includes('--print-table')) {
    console.log(JSON.stringify({ releases: ENGINE_RELEASES, builds: buildsOf(ENGINE_RELEASES) }, null, 2));
    return 0;
  }
  const builds = buildsOf(ENGINE_RELEASES);
  const missing = builds.filter((build) => !existsSync(join(JUDGE_DIR, build.modfile)));
  if (missing.length > 0 && !argv.includes('--update-modfiles')) {
    console.error(
      `judge:expr: no modfile for ${missing.map((b) => b.name).join(', ')}; run npm run judge:expr -- ` +
        `--update-modfiles and commit ${relative(ROOT, JUDGE_DIR)}/modfiles/`,
    );
    return 2;
  }
  for (const build of missing) writeModfile(build);

  const clusters = shippedClusters(join(ROOT, 'clusters'));
  const configMaps = [
    ...clusters.flatMap((config) => notificationConfigMaps(config)),
    ...controlConfigMaps(clusters, declaredOverrides(argv)),
  ];
  let passed = 0;
  let failed = 0;
  let built = 0;
  const notes: string[] = [];
  for (const build of builds) {
    const started = Date.now();
    const options = { modfile: build.modfile, tags: build.tags };
    if (!existsSync(goToolBinary(JUDGE_DIR, '.', options))) built += 1;
    const binary = buildGoTool(JUDGE_DIR, '.', options);
    const rows = ENGINE_RELEASES.filter((row) => build.rows.includes(row));
    const cases = rows.flatMap((row) =>
      configMaps
        .filter((cm) => cm.engine === row.engine)
        .map((cm) => ({ row, cm, ref: `${ENGINE_NAMES[row.engine]} ${row.from}+ | ${cm.ref}` })),
    );
    const values = rows.flatMap((row) => valueCases(row, `${ENGINE_NAMES[row.engine]} ${row.from}+`));
    const answer = runJudge(
      binary,
      cases.map(({ cm, row, ref }) => ({
        ref,
        engine: cm.engine,
        vars: row.vars,
        oncePerAlways: row.oncePerAlways,
        data: cm.data,
      })),
      values.map(({ model: _model, ...asked }) => asked),
    );
    const linkProblem = wrongLinkedVersions(build, answer.linked);
    let buildFailed = 0;
    for (const { row, cm, ref } of cases) {
      const expected = expectations(cm, row);
      const results = answer.results.filter((result) => result.configMap === ref);
      for (const result of results) {
        for (const note of result.notes ?? []) notes.push(`note ${ref} ${result.item}: ${note}`);
        const expect = expected.get(result.item) ?? 'pass';
        const ok = !linkProblem && (expect === 'either' || (expect === 'pass') === result.ok);
        if (ok) {
          passed += 1;
          continue;
        }
        failed += 1;
        buildFailed += 1;
        const outcome = result.ok ? 'it passed' : `it failed: ${(result.problems ?? []).join('; ')}`;
        console.log(`FAIL ${ref} ${result.item}: expected ${expect}, ${linkProblem ?? outcome}`);
      }
      for (const item of expected.keys()) {
        if (results.some((result) => result.item === item)) continue;
        failed += 1;
        buildFailed += 1;
        console.log(`FAIL ${ref} ${item}: the judge did not report it`);
      }
    }
    for (const { ref, model } of values) {
      const real = answer.values.find((value) => value.ref === ref)?.value ?? '(not reported)';
      if (!linkProblem && agrees(model, real)) {
        passed += 1;
        continue;
      }
      failed += 1;
      buildFailed += 1;
      console.log(`FAIL ${ref}: the model gives ${model}, ${linkProblem ?? `the release ${real}`}`);
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(
      `${buildFailed === 0 ? 'ok  ' : 'FAIL'} ${build.name}: ` +
        `${rows.map((row) => `${ENGINE_NAMES[row.engine]} ${row.from}+`).join(', ')} (${cases.length} ` +
        `ConfigMaps, ${values.length} values, ${seconds} s)`,
    );
  }
  if (argv.includes('--notes')) notes.forEach((note) => console.log(note));
  console.log(
    `${notes.length} notes (oncePer errors where when is false, logged by releases that run oncePer ` +
      `anyway)${argv.includes('--notes') ? '' : '; --notes lists them'}`,
  );
  console.log(
    `${builds.length} builds (${built} built now, ${builds.length - built} from the cache in ` +
      `${goToolCache()}), ${configMaps.length} ConfigMaps`,
  );
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

/** `--declare argo-rollouts=1.7.0 --declare argo-cd=2.8.4` */
function declaredOverrides(argv: readonly string[]): Partial<Record<Engine, string>> {
  const overrides: Partial<Record<Engine, string>> = {};
  argv.forEach((arg, i) => {
    if (arg !== '--declare') return;
    const [engine, release] = (argv[i + 1] ?? '').split('=');
    if ((engine !== 'argo-rollouts' && engine !== 'argo-cd') || !release || !RELEASE.test(release)) {
      throw new ConfigError([
        `--declare: expected argo-rollouts=<release> or argo-cd=<release>, e.g. argo-rollouts=1.7.0, got ` +
          `${JSON.stringify(argv[i + 1] ?? '')}`,
      ]);
    }
    overrides[engine] = release;
  });
  return overrides;
}

interface JudgeAnswer {
  readonly linked: Record<string, string>;
  readonly results: JudgeResult[];
  readonly values: { readonly ref: string; readonly value: string }[];
}

function runJudge(binary: string, configMaps: readonly object[], values: readonly object[]): JudgeAnswer {
  const input = JSON.stringify({ configMaps, objects: ODD_OBJECTS, values });
  const result = spawnSync(binary, [], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new GoToolError(`exprjudge exited with ${result.status}: ${result.stderr}`);
  return JSON.parse(result.stdout) as JudgeAnswer;
}

/** The binary must link exactly the versions its row names (a stale or wrong modfile would judge another library). */
function wrongLinkedVersions(build: JudgeBuild, linked: Record<string, string>): string | undefined {
  const want = { [build.module]: `v${build.version}`, 'github.com/Masterminds/sprig/v3': `v${build.sprig}` };
  const wrong = Object.entries(want).filter(([module, version]) => linked[module] !== version);
  if (wrong.length === 0) return undefined;
  return (
    `the binary links ${wrong.map(([module]) => `${module} ${linked[module] ?? '(none)'}`).join(', ')}, not ` +
    `${wrong.map(([m, v]) => `${m} ${v}`).join(', ')}`
  );
}

/** modfiles/<build>.mod and .sum, from the Go module proxy. */
function writeModfile(build: JudgeBuild): void {
  const modfile = join(JUDGE_DIR, build.modfile);
  writeFileSync(modfile, 'module glidepath-gitops/tools/exprjudge\n\ngo 1.22\n');
  runGo(
    [
      'get',
      `-modfile=${modfile}`,
      `${build.module}@v${build.version}`,
      `github.com/Masterminds/sprig/v3@v${build.sprig}`,
      SIGS_YAML,
    ],
    JUDGE_DIR,
    `resolve ${build.name}`,
  );
  console.log(`wrote ${relative(ROOT, modfile)} and its .sum`);
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof GoToolError) && !(error instanceof ConfigError)) throw error;
  console.error((error as Error).message);
  process.exitCode = 2;
}
