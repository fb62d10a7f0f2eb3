/** Zod's issues as the loader prints them: `file: field: message (line L, column C)`, capped per kind. */
import type { z } from 'zod';
import { closestName } from '../closest-name';
import { capPerKind } from './capped-problems';
import { describeValue, excerpt, shownPath } from './shown-input';

/** Each issue as `file: field: message (line L, column C)`, at most MAX_PER_KIND of one kind. */
export function formatIssues(
  file: string,
  issues: readonly z.core.$ZodIssue[],
  at: (path: readonly PropertyKey[], key?: string) => string,
  atLine: (path: readonly PropertyKey[], line: number) => string,
  sourceOf: (path: readonly PropertyKey[]) => string | undefined,
): string[] {
  const lines = issues.flatMap((issue) => {
    const kind = issueKind(issue);
    if (issue.code === 'unrecognized_keys') {
      // strict() lists the allowed keys in the message: a typo (`rely`, `trackd`) is told what it meant.
      const allowed = /allowed keys here: (.*)$/.exec(issue.message)?.[1]?.split(', ') ?? [];
      return issue.keys.map((key) => {
        const meant = closestName(key, allowed);
        const hint = meant === undefined ? '' : `; did you mean ${meant}?`;
        return {
          kind,
          line: `${file}: ${shownPath([...issue.path, key])}: ${issue.message}${hint}${at(issue.path, key)}`,
        };
      });
    }
    const field = shownPath(issue.path) || '(top level)';
    if (issue.path[1] === 'extraData' && issue.path.length === 3) {
      // A team's ConfigMap value: the key as it is written, and the line of the problem inside the value.
      const inner = issue.code === 'custom' ? (issue.params?.line as number | undefined) : undefined;
      const where = inner === undefined ? at(issue.path.slice(0, 2), String(issue.path[2])) : atLine(issue.path, inner);
      return [
        {
          kind,
          line:
            `${file}: ${shownPath(issue.path.slice(0, 2))}[${JSON.stringify(issue.path[2])}]: ` +
            `${issueMessage(issue, sourceOf)}${where}`,
        },
      ];
    }
    return [{ kind, line: `${file}: ${field}: ${issueMessage(issue, sourceOf)}${at(issue.path)}` }];
  });
  return capPerKind(file, lines);
}

/** What groups problems of one kind: `unknown key`, `expected string, got a number`. */
function issueKind(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return 'unknown key';
  if (issue.code === 'invalid_type')
    return issue.input === undefined
      ? `missing ${issue.expected}`
      : `expected ${issue.expected}, got a ${typeof issue.input}`;
  return issue.message;
}

function issueMessage(issue: z.core.$ZodIssue, sourceOf: (path: readonly PropertyKey[]) => string | undefined): string {
  if (issue.code === 'invalid_type') {
    if (issue.input === undefined)
      return `is required (expected ${issue.expected}); add it (docs/cluster-file.md describes each field)`;
    if (issue.expected === 'string' && (typeof issue.input === 'number' || typeof issue.input === 'boolean')) {
      return (
        `expected a string, got the ${typeof issue.input} ${String(issue.input)}: ` +
        `${unquotedHint(issue.input, sourceOf(issue.path))}`
      );
    }
    if (issue.expected === 'int' && typeof issue.input === 'number' && Number.isFinite(issue.input)) {
      const nearest = Math.round(issue.input);
      return `must be a whole number, got ${String(issue.input)}; write it without a fraction, e.g. ${nearest}`;
    }
    if (issue.expected === 'number' && typeof issue.input === 'number') {
      const written = sourceOf(issue.path);
      return (
        `must be a finite number; YAML reads ${written === undefined ? 'it' : excerpt(written)} as ` +
        `${String(issue.input)}`
      );
    }
    return `expected ${issue.expected}, got ${describeValue(issue.input)}`;
  }
  if (issue.code === 'invalid_value') {
    const values = issue.values.map((v) => JSON.stringify(v)).join(', ');
    return `expected one of ${values}, got ${describeValue(issue.input)}`;
  }
  if ((issue.code === 'too_small' || issue.code === 'too_big') && issue.origin === 'number') {
    return `${issue.message} (got ${describeValue(issue.input)})`;
  }
  return issue.message;
}

/** Why quotes are needed: only a number whose reading lost text (1.30 to 1.3) is said to have lost it. */
function unquotedHint(input: number | boolean, source: string | undefined): string {
  const written = source ?? String(input);
  const quoted = excerpt(written);
  if (typeof input === 'number' && source !== undefined && source !== String(input)) {
    return (
      `YAML reads it without quotes as the number ${String(input)}, losing the text as written; put it in quotes: ` +
      `${quoted}`
    );
  }
  return `YAML reads a value without quotes as a ${typeof input}; put it in quotes: ${quoted}`;
}
