/** What every verify rule family takes and returns. */
import type { FirstValueLine } from '../config/parse-cluster-yaml';
import type { ClusterConfig } from '../config/schema';

/** One Kubernetes object as rendered, with the file it came from. */
export interface RenderedObject {
  /** File name inside the cluster's folder, e.g. `veridor-gate-shop.k8s.yaml`. */
  readonly file: string;
  readonly manifest: Manifest;
  /** The YAML text of this object's document as rendered, when known (to check how strings were written). */
  readonly source?: string;
}

/** A parsed Kubernetes manifest; only apiVersion/kind/metadata are assumed. */
export interface Manifest {
  readonly apiVersion?: unknown;
  readonly kind?: unknown;
  readonly metadata?: { readonly name?: unknown; readonly namespace?: unknown; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

export interface VerifyContext {
  /** The validated cluster file the objects were rendered from. */
  readonly config: ClusterConfig;
  /**
   * Secret values known to the running process (e.g. GITHUB_TOKEN) that must never reach the output.
   * The CLI fills it from the environment; tests pass their own.
   */
  readonly knownSecrets?: readonly string[];
  /** The cluster file as the user names it, and where its fields are, for findings that point into it. */
  readonly clusterFile?: ClusterFileLines;
}

export interface ClusterFileLines {
  /** e.g. `clusters/prod.yaml` */
  readonly file: string;
  readonly valueLine: FirstValueLine;
}

export interface Violation {
  /** `Kind/namespace/name`, or `Kind/name` for a cluster-scoped object. */
  readonly object: string;
  /** Stable rule id, `<family>/<rule>`, e.g. `pod-security/run-as-non-root`. */
  readonly rule: string;
  /** What is wrong, with the field path. Never contains a secret value. */
  readonly message: string;
  /** What to change. */
  readonly fix: string;
}

/** What one rule family found: how many (rule, subject) checks it ran, and what failed. */
export interface FamilyReport {
  readonly family: string;
  /** Objects the family looked at (objects with nothing for it to check are not counted). */
  readonly objects: number;
  readonly checks: number;
  readonly violations: readonly Violation[];
  /** Findings worth a look that do not fail verify (e.g. a team trigger named `on-...`). @default none */
  readonly warnings?: readonly Violation[];
}

export type RuleFamily = (objects: readonly RenderedObject[], context: VerifyContext) => FamilyReport;

/** `Kind/namespace/name` of a manifest, as messages name it. */
export function objectRef(manifest: Manifest): string {
  const kind = typeof manifest.kind === 'string' ? manifest.kind : '(no kind)';
  const name = typeof manifest.metadata?.name === 'string' ? manifest.metadata.name : '(no name)';
  const namespace = manifest.metadata?.namespace;
  return typeof namespace === 'string' ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}

/** Counts checks and collects violations for one family. */
export class Tally {
  private checkCount = 0;
  private readonly subjects = new Set<string>();
  readonly violations: Violation[] = [];
  readonly warnings: Violation[] = [];

  constructor(readonly family: string) {}

  /**
   * Runs one check of `rule` on `object`: `problem` returns undefined when the check passes, or the
   * message and fix of the violation.
   */
  check(object: string, rule: string, problem: () => { message: string; fix: string } | undefined): void {
    this.checkCount += 1;
    this.subjects.add(object);
    const found = problem();
    if (found) this.violations.push({ object, rule: `${this.family}/${rule}`, ...found });
  }

  /** Like `check`, for a rule that can fail several times on one object (one per field). */
  checkEach(object: string, rule: string, problems: () => readonly { message: string; fix: string }[]): void {
    this.checkCount += 1;
    this.subjects.add(object);
    for (const found of problems()) this.violations.push({ object, rule: `${this.family}/${rule}`, ...found });
  }

  /** Like `checkEach`, for findings that warn without failing verify. */
  warnEach(object: string, rule: string, problems: () => readonly { message: string; fix: string }[]): void {
    this.checkCount += 1;
    this.subjects.add(object);
    for (const found of problems()) this.warnings.push({ object, rule: `${this.family}/${rule}`, ...found });
  }

  report(): FamilyReport {
    return {
      family: this.family,
      objects: this.subjects.size,
      checks: this.checkCount,
      violations: this.violations,
      ...(this.warnings.length > 0 ? { warnings: this.warnings } : {}),
    };
  }
}

export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
