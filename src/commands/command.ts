/** The shape every command module has: its options, its usage text and `run()`. */
import type { ClusterTextValidator } from '../config/validate-cluster-text';
import type { ClusterConfig } from '../config/schema';
import type { KubectlRunner } from '../live/kubectl';
import type { RenderedFile } from '../render/render-cluster';

/** One cluster into the files of its folder; tests inject another one (e.g. one that plants an object). */
export type Renderer = (config: ClusterConfig) => RenderedFile[];

/** What a command may use from outside itself. */
export interface CommandContext {
  readonly render: Renderer;
  /** A cluster file's text into its config; tests inject one that remembers each text's result. */
  readonly validate: ClusterTextValidator;
  /** How check-live runs kubectl. */
  readonly kubectl: KubectlRunner;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly print: (line: string) => void;
  readonly warn: (line: string) => void;
}

/**
 * How a command ended; src/cli.ts turns it into the exit code. `failure`: some of its work failed (e.g. one cluster
 * of pr --all); `not-ready`: check-live found something to fix.
 */
export type Outcome = 'done' | 'violations' | 'changes' | 'failure' | 'not-ready';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** Placeholder of the value in the help text, e.g. `NAME`. */
  readonly value?: string;
  readonly description: string;
  readonly short?: string;
  readonly default?: string;
  /** May be given more than once; the values come as a list. */
  readonly multiple?: boolean;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** The parsed value of each option: booleans are set or not, strings with a default always have one. */
export type OptionValues<O extends OptionSpecs> = {
  readonly [K in keyof O]: O[K] extends { type: 'boolean' }
    ? boolean | undefined
    : O[K] extends { multiple: true }
      ? string[] | undefined
      : O[K] extends { default: string }
        ? string
        : string | undefined;
};

export interface Command<O extends OptionSpecs = OptionSpecs> {
  readonly name: string;
  /** One line: what the command does. */
  readonly summary: string;
  /** How it is typed, e.g. `glidepath pr --cluster NAME [options]`. */
  readonly usage: string;
  readonly options: O;
  /** Text after the options: environment variables, exit codes that only this command uses. */
  readonly notes?: readonly string[];
  run(values: OptionValues<O>, context: CommandContext): Promise<Outcome>;
}

/** Keeps the option names of `options` in the type of `run`'s values. */
export function defineCommand<O extends OptionSpecs>(command: Command<O>): Command<O> {
  return command;
}
