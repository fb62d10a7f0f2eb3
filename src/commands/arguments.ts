/** Reads a command's arguments against its options, and writes its help text from the same options. */
import { parseArgs } from 'node:util';
import type { KnownSecret } from '../config/environment-secrets';
import { shownArgument, shownWord } from '../config/shown-input';
import { closestName } from '../closest-name';
import { GlidepathError } from '../errors';
import type { Command, OptionSpec, OptionSpecs, OptionValues } from './command';

const HELP: OptionSpec = { type: 'boolean', short: 'h', description: 'show this help' };

export type ParsedArguments<O extends OptionSpecs> =
  { readonly help: true } | { readonly help: false; readonly values: OptionValues<O> };

/** `known`: the secrets of the environment; a word of the command line that holds one is shown masked. */
export function parseCommandArguments<O extends OptionSpecs>(
  command: Command<O>,
  args: readonly string[],
  known: readonly KnownSecret[] = [],
): ParsedArguments<O> {
  const specs: OptionSpecs = { ...command.options, help: HELP };
  const parseOptions = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      {
        type: spec.type,
        ...(spec.short !== undefined ? { short: spec.short } : {}),
        ...(spec.multiple === true ? { multiple: true } : {}),
      },
    ]),
  );
  const { values, tokens } = parseArgs({
    args: [...args],
    options: parseOptions,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const helpHint = `glidepath ${command.name} --help lists its options`;
  const given = new Map<string, string[]>();
  for (const token of tokens) {
    if (token.kind === 'positional') {
      throw new GlidepathError(
        `${command.name} takes no argument ${shownArgument(token.value, known)}`,
        `options start with --; ${helpHint}`,
      );
    }
    if (token.kind !== 'option') continue;
    const spec = specs[token.name];
    if (spec === undefined) {
      const closest = closestName(token.name, Object.keys(specs));
      throw new GlidepathError(
        `${shownWord(token.rawName, known)} is not an option of ${command.name}`,
        closest === undefined ? helpHint : `did you mean --${closest}? ${helpHint}`,
      );
    }
    if (spec.type === 'boolean' && token.value !== undefined) {
      throw new GlidepathError(
        `${token.rawName} takes no value (got ${shownArgument(token.value, known)})`,
        `write ${token.rawName} alone`,
      );
    }
    if (spec.type === 'string' && (token.value === undefined || (!token.inlineValue && token.value.startsWith('-')))) {
      throw new GlidepathError(`${token.rawName} needs a value`, `e.g. ${token.rawName} ${spec.value ?? 'VALUE'}`);
    }
    if (spec.type === 'string' && spec.multiple !== true)
      given.set(token.name, [...(given.get(token.name) ?? []), token.value!]);
  }
  // parseArgs keeps the last of a repeated option: `--cluster prod --cluster dev` would run dev alone.
  for (const [name, values] of given) {
    if (values.length > 1)
      throw new GlidepathError(
        `--${name} is given ${values.length} times (${values.map((v) => shownArgument(v, known)).join(', ')}); ` +
          'it takes one value',
        `give --${name} once, and run the command again for another value`,
      );
  }
  if (values.help === true) return { help: true };
  const withDefaults = Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [name, values[name] ?? spec.default]),
  );
  return { help: false, values: withDefaults as OptionValues<O> };
}

export function commandHelp(command: Command): string {
  const rows = Object.entries({ ...command.options, help: HELP }).map(([name, spec]) => {
    const short = spec.short !== undefined ? `-${spec.short}, ` : '';
    const value = spec.value !== undefined ? ` ${spec.value}` : '';
    const left = `${short}--${name}${value}${spec.multiple === true ? ' ...' : ''}`;
    const description =
      spec.default !== undefined ? `${spec.description} (default: ${spec.default})` : spec.description;
    return [left, description] as const;
  });
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return [
    `${command.name}: ${command.summary}`,
    '',
    `Usage: ${command.usage}`,
    '',
    'Options:',
    ...rows.map(([left, description]) => `  ${left.padEnd(width)}${description}`),
    ...(command.notes !== undefined && command.notes.length > 0 ? ['', ...command.notes] : []),
  ].join('\n');
}
