/** What the CLI printed in each test, line by line: console.log and console.error are captured, not shown. */
import { afterEach, beforeEach, vi } from 'vitest';

export interface PrintedLines {
  readonly stdout: string[];
  readonly stderr: string[];
  /** Forgets what was printed so far (e.g. between two commands of one test). */
  clear(): void;
}

export function capturePrintedLines(): PrintedLines {
  const printed: PrintedLines = {
    stdout: [],
    stderr: [],
    clear() {
      printed.stdout.length = 0;
      printed.stderr.length = 0;
    },
  };
  beforeEach(() => {
    printed.clear();
    vi.spyOn(console, 'log').mockImplementation((...args) => void printed.stdout.push(args.join(' ')));
    vi.spyOn(console, 'error').mockImplementation((...args) => void printed.stderr.push(args.join(' ')));
  });
  afterEach(() => vi.restoreAllMocks());
  return printed;
}

/** The lines one CLI run prints, without touching the console: for tests that run at the same time. */
export interface CliLines {
  readonly stdout: string[];
  readonly stderr: string[];
  /** `main(args, { ...lines.sinks })` sends its output here. */
  readonly sinks: { readonly print: (line: string) => void; readonly printError: (line: string) => void };
  clear(): void;
}

export function cliLines(): CliLines {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    sinks: { print: (line) => void stdout.push(line), printError: (line) => void stderr.push(line) },
    clear() {
      stdout.length = 0;
      stderr.length = 0;
    },
  };
}
