/**
 * The generated part of docs/engine-versions.md: the release table and the feature table, from
 * src/notifications/engine-releases.ts. `npm run docs` rewrites it; test/tools/exprjudge.test.ts keeps it current.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { argocdExprFeatures } from '../../src/notifications/argocd/sync-failure-fact';
import { EXPR_FEATURE_SINCE, lowestSupported, missingFeatures } from '../../src/notifications/engine-versions';
import { ENGINE_NAMES, ENGINE_RELEASES, type Engine } from '../../src/notifications/engine-releases';
import { EXPR_FEATURE_SYNTAX, EXPR_FEATURES, type ExprFeature } from '../../src/notifications/expr/features';
import { rolloutExprFeatures } from '../../src/notifications/rollouts/rollout-fact';

export const DOC = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'docs', 'engine-versions.md');
const BEGIN = '<!-- generated from src/notifications/engine-releases.ts: npm run docs -->';
const END = '<!-- end of generated part -->';

/** What glidepath renders for each engine, and what the opt-ins add. */
const RENDERED: readonly { readonly engine: Engine; readonly what: string; readonly needs: readonly ExprFeature[] }[] =
  [
    { engine: 'argo-rollouts', what: "glidepath's trigger", needs: rolloutExprFeatures() },
    { engine: 'argo-cd', what: "glidepath's trigger", needs: argocdExprFeatures(false) },
    { engine: 'argo-cd', what: 'with `argocd.retryFacts`', needs: argocdExprFeatures(true) },
  ];

export function generatedPart(): string {
  const lines = [
    BEGIN,
    '',
    '| Engine | Releases (first read) | Releases whose go.mod was read | notifications-engine | expr | sprig ' +
      '| oncePer where when is false | glidepath |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of ENGINE_RELEASES) {
    const verdicts = RENDERED.filter((r) => r.engine === row.engine).map((r) => {
      const missing = missingFeatures(row, r.needs);
      return missing.length === 0
        ? `${r.what}: compiles`
        : `${r.what}: refused (lacks ${missing.map((f) => EXPR_FEATURE_SYNTAX[f]).join(' and ')})`;
    });
    const engines = row.notificationsEngine.map((v) => `\`${v}\``).join(', ');
    lines.push(
      `| ${ENGINE_NAMES[row.engine]} | ${row.from} | ${row.read.join(', ')} | ${engines} | ` +
        `\`${row.expr.module}\` v${row.expr.version} | v${row.sprig} | ` +
        `${row.oncePerAlways ? 'run (errors logged)' : 'not run'} | ${verdicts.join('; ')} |`,
    );
  }
  lines.push('', '| expr feature | first expr version in the table that has it |', '| --- | --- |');
  for (const feature of EXPR_FEATURES)
    lines.push(`| ${EXPR_FEATURE_SYNTAX[feature]} | v${EXPR_FEATURE_SINCE[feature]} |`);
  lines.push('', '| What | Lowest supported release |', '| --- | --- |');
  for (const r of RENDERED)
    lines.push(`| ${ENGINE_NAMES[r.engine]}, ${r.what} | ${lowestSupported(r.engine, r.needs)} |`);
  lines.push('', END);
  return lines.join('\n');
}

/** The doc with its generated part replaced by the current one. */
export function currentDoc(text: string): string {
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${DOC} lacks the markers of its generated part`);
  return text.slice(0, begin) + generatedPart() + text.slice(end + END.length);
}
