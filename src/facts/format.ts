/** `npm run facts` output: a readable report, or the JSON array (one entry per state and trigger). */
import type { FactEntry, StateReport } from './evaluate';
import { isoSeconds, type Json } from './input';

/** `[{state, trigger, sent, why, body?}]`, body only when sent. */
export function factsJson(reports: readonly StateReport[]): string {
  const entries = reports.flatMap((report) =>
    report.entries.map(({ state, trigger, sent, why, body }: FactEntry) => ({
      state,
      trigger,
      sent,
      why,
      ...(sent ? { body } : {}),
    })),
  );
  return JSON.stringify(entries, null, 2);
}

export function factsText(header: string, reports: readonly StateReport[]): string[] {
  const lines = [header];
  for (const report of reports) {
    const metadata = (report.object.metadata ?? {}) as Json;
    const generation = metadata.generation === undefined ? '' : `, generation ${String(metadata.generation)}`;
    // A state read from a single Rollout has no name of its own: its name is its index, said once.
    const name = report.name === `state ${report.index}` ? '' : ` (${report.name})`;
    lines.push(
      '',
      `state ${report.index}${name} at ${isoSeconds(report.at)}: ${String(report.object.kind)} ` +
        `${String(metadata.namespace)}/${String(metadata.name)}${generation}`,
    );
    for (const entry of report.entries) {
      lines.push(`  ${entry.trigger}: ${entry.sent ? 'SENT' : 'not sent'}: ${entry.why}`);
      if (!entry.sent) continue;
      lines.push(`    ${entry.request}`);
      if (entry.body === undefined) continue;
      const body = typeof entry.body === 'string' ? entry.body : JSON.stringify(entry.body, null, 2);
      for (const line of body.split('\n')) lines.push(`    ${line}`);
    }
  }
  const sent = reports.reduce((sum, report) => sum + report.entries.filter((e) => e.sent).length, 0);
  lines.push(
    '',
    `${reports.length} state${reports.length === 1 ? '' : 's'}, ${sent} fact${sent === 1 ? '' : 's'} sent`,
  );
  return lines;
}
