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

/**
 * A request as the report shows it: every secret of the run (what it is -> its value) only as what it is, wherever it
 * stands (a bearer token, a Slack form's `token`), and any other authorization header as `<another value>`.
 */
export function reportedRequest(request: CaughtRequest, secrets: Readonly<Record<string, string>>): unknown {
  const hide = (text: string): string =>
    Object.entries(secrets).reduce((shown, [what, value]) => shown.split(value).join(`<${what}>`), text);
  const { authorization, ...headers } = request.headers;
  const shownAuthorization = typeof authorization === 'string' ? hide(authorization) : authorization;
  return {
    seq: request.seq,
    at: new Date(request.at).toISOString(),
    method: request.method,
    path: request.path,
    headers: {
      ...headers,
      authorization:
        shownAuthorization !== undefined && shownAuthorization === authorization
          ? '<another value>'
          : shownAuthorization,
    },
    refused: request.refused,
    body: request.form
      ? Object.fromEntries(Object.entries(request.form).map(([key, value]) => [key, hide(value)]))
      : request.json !== undefined
        ? JSON.parse(hide(request.body))
        : hide(request.body),
  };
}

export function writeReport(file: string, report: unknown): void {
  writeFileSync(file, JSON.stringify(report, null, 2) + '\n');
}
