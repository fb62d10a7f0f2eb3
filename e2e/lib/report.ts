import { writeFileSync } from 'node:fs';
import type { CaughtRequest } from './catcher';

export interface Assertion {
  readonly name: string;
  readonly pass: boolean;
  readonly detail?: unknown;
}

export interface ScenarioResult {
  readonly name: string;
  readonly source: string;
  pass: boolean;
  readonly assertions: Assertion[];
  readonly notes: Record<string, unknown>;
  seconds: number;
  error?: string;
}

export class Scenario {
  readonly result: ScenarioResult;

  constructor(name: string, source: string) {
    this.result = { name, source, pass: true, assertions: [], notes: {}, seconds: 0 };
  }

  check(name: string, pass: boolean, detail?: unknown): boolean {
    this.result.assertions.push({ name, pass, ...(detail !== undefined ? { detail } : {}) });
    if (!pass) this.result.pass = false;
    return pass;
  }

  note(key: string, value: unknown): void {
    this.result.notes[key] = value;
  }
}

export async function runScenario(
  name: string,
  source: string,
  body: (s: Scenario) => Promise<void>,
  log: (line: string) => void,
): Promise<ScenarioResult> {
  const scenario = new Scenario(name, source);
  const started = Date.now();
  try {
    await body(scenario);
  } catch (error) {
    scenario.result.pass = false;
    scenario.result.error = error instanceof Error ? error.message : String(error);
  }
  scenario.result.seconds = (Date.now() - started) / 1000;
  const failed = scenario.result.assertions.filter((a) => !a.pass).map((a) => a.name);
  log(
    `${scenario.result.pass ? 'pass' : 'FAIL'}  ${name} (${scenario.result.seconds.toFixed(1)} s)` +
      `${failed.length ? `: ${failed.join('; ')}` : ''}${scenario.result.error ? `: ${scenario.result.error}` : ''}`,
  );
  return scenario.result;
}

/** A request as the report shows it: the bearer token only as whether it was the run's token. */
export function reportedRequest(request: CaughtRequest, relayToken: string): unknown {
  const { authorization, ...headers } = request.headers;
  return {
    seq: request.seq,
    at: new Date(request.at).toISOString(),
    method: request.method,
    path: request.path,
    headers: {
      ...headers,
      authorization:
        authorization === `Bearer ${relayToken}`
          ? "Bearer <the run's relay token>"
          : authorization === undefined
            ? undefined
            : '<another value>',
    },
    refused: request.refused,
    body: request.json ?? request.body,
  };
}

export function writeReport(file: string, report: unknown): void {
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}
