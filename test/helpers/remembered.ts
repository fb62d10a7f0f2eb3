/** The seams of main() that remember renders and loaded cluster files, for tests that run a command on the side. */
import type { CliOptions } from '../../src/cli';
import { renderOnce } from './render-once';
import { validateOnce } from './validate-once';

export const REMEMBERED = { render: renderOnce, validate: validateOnce } as const satisfies CliOptions;
