/**
 * `npm run judge:engine`: loads every team config of ./corpus.ts with the real notifications-engine of every row
 * of the engine release table (api.ParseConfig, the controller's InitGetVars, api.NewAPI: what the controllers
 * run at config load), and compares with glidepath's verdict on a cluster that declares that row's release
 * (refused at load, failed by verify, or accepted). Ends with `N cases, M disagreements` (exit 1 on any, 2 on a
 * setup problem).
 *
 *   npm run judge:engine                        judge every row
 *   npm run judge:engine -- --update-modfiles   write the missing modfiles/<build>.mod/.sum and services_<build>.go
 *   npm run judge:engine -- --write-schemas     write src/notifications/configmap/engine-schemas.json (commit it)
 *   npm run judge:engine -- --verbose           print every disagreement in full, with glidepath's reasons
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEMPLATE_FUNCTION_NAMES } from '../../src/notifications/model/template-function-names';
import { ENGINE_NAMES, ENGINE_RELEASES, type EngineRelease } from '../../src/notifications/engine-releases';
import { buildGoTool, goToolCache, GoToolError, runGo } from '../go-tool.mjs';
import { engineBuilds, type EngineBuild } from './builds';
import { corpus, type CorpusCase } from './corpus';
import { glidepathVerdict } from './glidepath-verdict';

const JUDGE_DIR = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(JUDGE_DIR, '..', '..');
const SCHEMAS = join(ROOT, 'src', 'notifications', 'configmap', 'engine-schemas.json');
const NOTIFICATIONS_ENGINE = 'github.com/argoproj/notifications-engine';

interface EngineVerdict {
  readonly ref: string;
  readonly ok: boolean;
  readonly error?: string;
}

/** The Go build tag of one notifications-engine version: services_<tag>.go registers its option types. */
export function buildTag(version: string): string {
  return `ne_${version.replace(/[^A-Za-z0-9]/g, '_')}`;
}

function main(argv: readonly string[]): number {
  const builds = engineBuilds();
  const missing = builds.filter(
    (build) => !existsSync(join(JUDGE_DIR, build.modfile)) || !existsSync(join(JUDGE_DIR, servicesFile(build))),
  );
  if (missing.length > 0 && !argv.includes('--update-modfiles')) {
    console.error(
      `judge:engine: no modfile or services file for ${missing.map((b) => b.name).join(', ')}; run npm run ` +
        `judge:engine -- --update-modfiles and commit ${relative(ROOT, JUDGE_DIR)}/`,
    );
    return 2;
  }
  for (const build of missing) writeBuildFiles(build);

  const binaries = new Map<EngineBuild, string>();
  for (const build of builds) {
    const started = Date.now();
    binaries.set(
      build,
      buildGoTool(JUDGE_DIR, '.', { modfile: build.modfile, tags: [buildTag(build.notificationsEngine)] }),
    );
    const seconds = (Date.now() - started) / 1000;
    if (seconds > 1) console.log(`built ${build.name} (${seconds.toFixed(0)} s)`);
  }

  const schemas = Object.fromEntries(
    [...new Map(builds.map((build) => [build.notificationsEngine, build])).values()].map((build) => [
      build.notificationsEngine,
      readSchema(binaries.get(build)!, build),
    ]),
  );
  const schemaText = `${JSON.stringify(deduplicated(schemas), null, 1)}\n`;
  if (argv.includes('--write-schemas')) {
    writeFileSync(SCHEMAS, schemaText);
    console.log(`wrote ${relative(ROOT, SCHEMAS)}`);
  } else if (!existsSync(SCHEMAS) || readFileSync(SCHEMAS, 'utf8') !== schemaText) {
    console.log(
      `FAIL ${relative(ROOT, SCHEMAS)} is not what the engine builds say; run npm run judge:engine -- ` +
        `--write-schemas and commit it`,
    );
    return 1;
  }

  const cases = corpus();
  const verdicts = new Map<EngineBuild, Map<string, EngineVerdict>>();
  for (const build of builds) {
    const engines = new Set(build.rows.map((row) => row.engine));
    const input = cases
      .filter((c) => engines.has(c.engine))
      .map((c) => ({ ref: c.ref, engine: c.engine, data: c.data }));
    verdicts.set(build, new Map(runJudge(binaries.get(build)!, build, input).map((v) => [v.ref, v])));
  }

  const verbose = argv.includes('--verbose');
  let disagreements = 0;
  let compared = 0;
  const perRow: string[] = [];
  for (const row of ENGINE_RELEASES) {
    const rowBuilds = builds.filter((build) => build.rows.includes(row));
    let rowDisagreements = 0;
    let rowCases = 0;
    let rowRefused = 0;
    for (const c of cases.filter((item) => item.engine === row.engine)) {
      rowCases += 1;
      const engine = rowBuilds.map((build) => ({ build, verdict: verdicts.get(build)!.get(c.ref)! }));
      const refusedBy = engine.filter(({ verdict }) => !verdict.ok);
      if (refusedBy.length > 0) rowRefused += 1;
      const ours = glidepathVerdict(c.engine, c.data, row.from);
      if (ours.ok === (refusedBy.length === 0)) continue;
      rowDisagreements += 1;
      const engineSays =
        refusedBy.length === 0
          ? 'accepts'
          : `refuses ` +
            `(${refusedBy.map(({ build, verdict }) => `${build.notificationsEngine}: ${verdict.error}`).join('; ')})`;
      const oursSays = ours.ok ? 'accepts' : `refuses (${ours.reasons.join('; ')})`;
      console.log(
        `DISAGREE ${rowName(row)} | ${c.ref}: the engine ${verbose ? engineSays : engineSays.slice(0, 300)}, ` +
          `glidepath ${verbose ? oursSays : oursSays.slice(0, 300)}`,
      );
    }
    compared += rowCases;
    disagreements += rowDisagreements;
    perRow.push(
      `${rowDisagreements === 0 ? 'ok  ' : 'FAIL'} ${rowName(row)} (notifications-engine ` +
        `${row.notificationsEngine.join(', ')}): ${rowCases} cases (the engine refuses ${rowRefused}), ` +
        `${rowDisagreements} disagreements`,
    );
  }
  perRow.forEach((line) => console.log(line));
  console.log(
    `${builds.length} builds (cache: ${goToolCache()}), ${cases.length} team configs, ${compared} verdicts compared`,
  );
  console.log(`${cases.length} cases, ${disagreements} disagreements`);
  return disagreements === 0 ? 0 : 1;
}

function rowName(row: EngineRelease): string {
  return `${ENGINE_NAMES[row.engine]} ${row.from}+`;
}

function servicesFile(build: EngineBuild): string {
  return `services_${buildTag(build.notificationsEngine)}.go`;
}

function runJudge(
  binary: string,
  build: EngineBuild,
  cases: readonly Pick<CorpusCase, 'ref' | 'engine' | 'data'>[],
): EngineVerdict[] {
  const result = spawnSync(binary, [], {
    input: JSON.stringify({ cases }),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0)
    throw new GoToolError(`enginejudge ${build.name} exited with ${result.status}: ${result.stderr}`);
  const answer = JSON.parse(result.stdout) as { linked: Record<string, string>; results: EngineVerdict[] };
  checkLinked(build, answer.linked);
  return answer.results;
}

function readSchema(binary: string, build: EngineBuild): unknown {
  const input = JSON.stringify({ functions: [...TEMPLATE_FUNCTION_NAMES].sort() });
  const result = spawnSync(binary, ['-schema'], { input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0)
    throw new GoToolError(`enginejudge ${build.name} -schema exited with ${result.status}: ${result.stderr}`);
  const answer = JSON.parse(result.stdout) as { linked: Record<string, string>; schema: unknown };
  checkLinked(build, answer.linked);
  return answer.schema;
}

/** The binary must link exactly the versions its build names (a stale modfile would judge another engine). */
function checkLinked(build: EngineBuild, linked: Record<string, string>): void {
  const want: Record<string, string> = {
    [NOTIFICATIONS_ENGINE]: build.notificationsEngine,
    [build.expr.module]: `v${build.expr.version}`,
    'github.com/Masterminds/sprig/v3': `v${build.sprig}`,
  };
  // The engines before 2023 template with sprig v2 (github.com/Masterminds/sprig), whatever sprig/v3 the release pins.
  if (linked['github.com/Masterminds/sprig/v3'] === undefined && linked['github.com/Masterminds/sprig'] !== undefined)
    delete want['github.com/Masterminds/sprig/v3'];
  const wrong = Object.entries(want).filter(([module, version]) => linked[module] !== version);
  if (wrong.length > 0) {
    throw new GoToolError(
      `judge:engine: ${build.name} links ` +
        `${wrong.map(([module]) => `${module} ${linked[module] ?? '(none)'}`).join(', ')}; regenerate its ` +
        `modfile with --update-modfiles`,
    );
  }
}

/** modfiles/<build>.mod and .sum from the Go module proxy, and services_<tag>.go from that engine's services.go. */
function writeBuildFiles(build: EngineBuild): void {
  const modfile = join(JUDGE_DIR, build.modfile);
  const flag = `-modfile=${modfile}`;
  if (!existsSync(modfile)) {
    writeModfile(build, modfile);
    console.log(`wrote ${relative(ROOT, modfile)} and its .sum`);
  }
  const dir = (
    JSON.parse(
      runGo(
        ['mod', 'download', '-json', flag, `${NOTIFICATIONS_ENGINE}@${build.notificationsEngine}`],
        JUDGE_DIR,
        `download ${build.name}`,
      ),
    ) as { Dir: string }
  ).Dir;
  const source = readFileSync(join(dir, 'pkg', 'services', 'services.go'), 'utf8');
  const newService = source.slice(source.indexOf('func NewService('));
  const entries = [...newService.matchAll(/case "([\w-]+)":\s*var opts (\w+)/g)].map(
    ([, type, options]) => `\t\t${JSON.stringify(type)}: reflect.TypeOf(services.${options}{}),`,
  );
  if (entries.length === 0)
    throw new GoToolError(
      `judge:engine: no service types found in ${NOTIFICATIONS_ENGINE}@${build.notificationsEngine} ` +
        `pkg/services/services.go`,
    );
  const tag = buildTag(build.notificationsEngine);
  writeFileSync(
    join(JUDGE_DIR, servicesFile(build)),
    `// Code generated by judge.ts from ${NOTIFICATIONS_ENGINE}@${build.notificationsEngine} ` +
      `pkg/services/services.go; DO NOT EDIT.\n\n` +
      `//go:build ${tag}\n\npackage main\n\nimport ` +
      `(\n\t"reflect"\n\n\t"github.com/argoproj/notifications-engine/pkg/services"\n)\n\n` +
      `func init() {\n\toptionTypes = map[string]reflect.Type{\n${entries.join('\n')}\n\t}\n}\n`,
  );
  runGo(['fmt', `./${servicesFile(build)}`], JUDGE_DIR, `format ${servicesFile(build)}`);
  console.log(`wrote ${relative(ROOT, join(JUDGE_DIR, servicesFile(build)))}`);
}

/** A modfile is written whole or not at all: a failed resolve leaves nothing that a later run would take as done. */
function writeModfile(build: EngineBuild, modfile: string): void {
  const flag = `-modfile=${modfile}`;
  writeFileSync(modfile, 'module glidepath-gitops/tools/enginejudge\n\ngo 1.22\n');
  try {
    runGo(
      [
        'get',
        flag,
        `${NOTIFICATIONS_ENGINE}@${build.notificationsEngine}`,
        `${build.expr.module}@v${build.expr.version}`,
        `github.com/Masterminds/sprig/v3@v${build.sprig}`,
      ],
      JUDGE_DIR,
      `resolve ${build.name}`,
    );
    // The controllers copy the engine's replace directives into their own go.mod (Go ignores a dependency's).
    const engineMod = (
      JSON.parse(
        runGo(
          ['mod', 'download', '-json', flag, `${NOTIFICATIONS_ENGINE}@${build.notificationsEngine}`],
          JUDGE_DIR,
          `download ${build.name}`,
        ),
      ) as { GoMod: string }
    ).GoMod;
    for (const [, from, to, version] of readFileSync(engineMod, 'utf8').matchAll(
      /^(?:replace\s+|\t)(\S+)(?: \S+)? => (\S+) (\S+)\s*$/gm,
    )) {
      runGo(
        ['mod', 'edit', flag, `-replace=${from}=${to}@${version}`],
        JUDGE_DIR,
        `copy the replace of ${from} into ${build.name}`,
      );
    }
    runGo(
      [
        'get',
        flag,
        `${NOTIFICATIONS_ENGINE}@${build.notificationsEngine}`,
        `${build.expr.module}@v${build.expr.version}`,
        `github.com/Masterminds/sprig/v3@v${build.sprig}`,
      ],
      JUDGE_DIR,
      `resolve ${build.name}`,
    );
    runGo(['mod', 'tidy', flag], JUDGE_DIR, `tidy ${build.name}`);
  } catch (error) {
    rmSync(modfile, { force: true });
    rmSync(modfile.replace(/\.mod$/, '.sum'), { force: true });
    throw error;
  }
}

/** `{versions: {<engine version>: <id>}, schemas: {<id>: schema}}`: most engine versions share one schema. */
function deduplicated(byVersion: Record<string, unknown>): unknown {
  const versions: Record<string, string> = {};
  const bySchema: Record<string, unknown> = {};
  for (const [version, schema] of Object.entries(byVersion).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const sorted = sortKeys(schema);
    const id = createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 12);
    versions[version] = id;
    bySchema[id] = sorted;
  }
  return { versions, schemas: sortKeys(bySchema) };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => [k, sortKeys(v)]),
  );
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof GoToolError)) throw error;
  console.error((error as Error).message);
  process.exitCode = 2;
}
