#!/usr/bin/env node
/** The command line: dispatch to one command, report its errors, and choose the exit code. */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { closestName } from './closest-name';
import { validateClusterText } from './clusters';
import { commandHelp, parseCommandArguments } from './commands/arguments';
import type { CommandContext, Outcome, Renderer } from './commands/command';
import { COMMANDS } from './commands/registry';
import { secretsFromEnvironment } from './config/environment-secrets';
import { mask, secretLikeReason } from './config/secret-values';
import { printableText, shownArgument, shownWord } from './config/shown-input';
import type { ClusterTextValidator } from './config/validate-cluster-text';
import { VERSION } from './version';
import { GlidepathError } from './errors';
import { FileSystemError, isErrnoError } from './output/fs-error';
import { runKubectl, type KubectlRunner } from './live/kubectl';
import { renderCluster } from './render/render-cluster';
import { colourPrefix, usesColour } from './terminal-colour';

const EXIT_CODES: Readonly<Record<Outcome | 'failure' | 'bad-input', number>> = {
  done: 0,
  violations: 1,
  failure: 1,
  'bad-input': 2,
  changes: 3,
  'not-ready': 3,
};

export interface CliOptions {
  /** @default renderCluster */
  readonly render?: Renderer;
  /** @default validateClusterText */
  readonly validate?: ClusterTextValidator;
  /** @default runKubectl, the kubectl on PATH */
  readonly kubectl?: KubectlRunner;
  /** @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Where each line of output goes. @default console.log */
  readonly print?: (line: string) => void;
  /** Where each line of errors and warnings goes. @default console.error */
  readonly printError?: (line: string) => void;
}

/** What `glidepath` with no command, `help`, `--help` or `-h` prints: the commands, never a render. */
const HELP_WORDS = new Set(['help', '--help', '-h']);
const VERSION_WORDS = new Set(['version', '--version', '-V']);

export async function main(argv: readonly string[], options: CliOptions = {}): Promise<number> {
  const [name, ...args] = argv;
  // Every line passes here: text from a server, a cluster or a file (an API's error, an annotation, a context name)
  // never reaches the terminal with its control characters, which could clear the screen or forge a line.
  const printOut = options.print ?? ((line: string) => console.log(line));
  const print = (line: string) => printOut(printableText(line, 'lines'));
  const env = options.env ?? process.env;
  const colour = usesColour(env, process.stderr.isTTY === true);
  const printErrorOut = options.printError ?? ((line: string) => console.error(colour ? colourPrefix(line) : line));
  const printError = (line: string) => printErrorOut(printableText(line, 'lines'));
  try {
    if (name === undefined || HELP_WORDS.has(name)) {
      print(await overview());
      return EXIT_CODES.done;
    }
    if (VERSION_WORDS.has(name)) {
      print(VERSION);
      return EXIT_CODES.done;
    }
    // A word that holds a secret (a token pasted into the wrong place) is shown masked in every message.
    const known = secretsFromEnvironment(env);
    const entry = COMMANDS.find((c) => c.name === name);
    if (entry === undefined) {
      if (name.startsWith('-')) {
        // The example names a command that takes the option: "glidepath synth -v" was refused in turn. A command
        // written after the option (`glidepath --cluster prod diff`) is the one meant: it moves to the front.
        const later = args.findIndex((word) => COMMANDS.some((c) => c.name === word));
        const meant = later === -1 ? undefined : args[later]!;
        const taker = meant !== undefined && (await takes(meant, name)) ? meant : await commandTaking(name);
        // The words after the option are shown as typed, a secret-looking one masked (`ghp_… 40 characters`).
        const rest = taker === meant ? args.filter((_, i) => i !== later) : [];
        const words = [shownWord(name, known), ...rest.map((w) => (secretLikeReason(w, known) ? mask(w) : w))];
        throw new GlidepathError(
          `${shownWord(name, known)} needs a command before it`,
          taker === undefined
            ? 'glidepath help lists the commands; glidepath --version prints the version'
            : `e.g. glidepath ${taker} ${words.join(' ')}; glidepath help lists the commands`,
        );
      }
      const closest = closestName(
        name,
        COMMANDS.map((c) => c.name),
      );
      throw new GlidepathError(
        `unknown command ${shownArgument(name, known)}`,
        `${closest !== undefined ? `did you mean ${closest}? ` : ''}glidepath help lists the commands`,
      );
    }
    const command = (await entry.load()).default;
    const parsed = parseCommandArguments(command, args, known);
    if (parsed.help) {
      print(commandHelp(command));
      return EXIT_CODES.done;
    }
    const context: CommandContext = {
      render: options.render ?? renderCluster,
      validate: options.validate ?? validateClusterText,
      kubectl: options.kubectl ?? runKubectl,
      env,
      print,
      warn: (line) => printError(`warning: ${line}`),
    };
    return EXIT_CODES[await command.run(parsed.values, context)];
  } catch (error) {
    return reportError(error, printError);
  }
}

/** The first command with the option `word` (`--json`, `-h`, `--cluster=prod`), if any. */
async function commandTaking(word: string): Promise<string | undefined> {
  for (const entry of COMMANDS) if (await takes(entry.name, word)) return entry.name;
  return undefined;
}

/** Whether the command `name` has the option `word`. */
async function takes(name: string, word: string): Promise<boolean> {
  const option = word.replace(/=.*$/s, '');
  const entry = COMMANDS.find((c) => c.name === name);
  if (entry === undefined) return false;
  const { options } = (await entry.load()).default;
  const specs = Object.entries(options as Readonly<Record<string, { short?: string }>>);
  return specs.some(
    ([long, spec]) => option === `--${long}` || (spec.short !== undefined && option === `-${spec.short}`),
  );
}

async function overview(): Promise<string> {
  const commands = await Promise.all(COMMANDS.map(async (entry) => (await entry.load()).default));
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    `glidepath ${VERSION}: renders the manifests that feed Glidepath with release facts.`,
    '',
    'Usage: glidepath <command> [options]   (in a clone of this repository also: npm run <command> -- [options])',
    '',
    'Commands (glidepath <command> --help lists the options of one):',
    ...commands.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
    '',
    'glidepath --version prints the version.',
    '',
    'Exit codes: 0 done, 1 failure or verify violations, 2 bad input (nothing was written), 3 changes (synth ' +
      '--check, diff --exit-code) or, for check-live, something to fix (for init, values to set).',
  ].join('\n');
}

function reportError(error: unknown, printError: (line: string) => void): number {
  if (error instanceof GlidepathError) {
    for (const line of error.report()) printError(line);
    return error.badInput ? EXIT_CODES['bad-input'] : EXIT_CODES.failure;
  }
  if (error instanceof FileSystemError) {
    printError(`error: ${error.message}`);
    return EXIT_CODES.failure;
  }
  // Any other file-system failure: one line with the path and the cause, not a stack trace.
  if (isErrnoError(error) && error.path !== undefined) {
    printError(`error: ${new FileSystemError(error.path, error.code, `cannot ${error.syscall ?? 'use'}`).message}`);
    return EXIT_CODES.failure;
  }
  printError(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return EXIT_CODES.failure;
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  return script !== undefined && import.meta.url === pathToFileURL(realpathSync(script)).href;
}

/** Runs the CLI and sets the exit code; scripts/cli.mjs calls this on the bundled build. */
export async function run(argv: readonly string[]): Promise<void> {
  process.exitCode = await main(argv);
}

if (isEntryPoint()) await run(process.argv.slice(2));
