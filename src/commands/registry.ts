/**
 * Every command of the CLI, in the order the help lists them. A command is one module under src/commands/
 * whose default export is a `Command`; it is loaded only when it runs (or when the help lists them all).
 */
import type { Command } from './command';

export interface CommandEntry {
  readonly name: string;
  readonly load: () => Promise<{ default: Command }>;
}

export const COMMANDS: readonly CommandEntry[] = [
  { name: 'init', load: async () => import('./init') },
  { name: 'synth', load: async () => import('./synth') },
  { name: 'verify', load: async () => import('./verify') },
  { name: 'pr', load: async () => import('./pr') },
  { name: 'diff', load: async () => import('./diff') },
  { name: 'facts', load: async () => import('./facts') },
  { name: 'check-live', load: async () => import('./check-live') },
  { name: 'steps', load: async () => import('./steps') },
];
