/** NO_COLOR and FORCE_COLOR: colour only on stderr, only where asked for or on a terminal. */
import { describe, expect, it } from 'vitest';
import { main } from '../src/cli';
import { colourPrefix, usesColour } from '../src/terminal-colour';
import { capturePrintedLines } from './helpers/console';

const ESC = '\u001b[';

describe('usesColour', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ TERM: 'dumb' }, true, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ NODE_DISABLE_COLORS: '1' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
  ])('%j on a terminal: %s -> %s', (env, isTTY, expected) => {
    expect(usesColour(env, isTTY)).toBe(expected);
  });

  it('colours only the leading error:, warning: or fix:', () => {
    expect(colourPrefix('error: bad')).toBe(`${ESC}1;31merror:${ESC}0m bad`);
    expect(colourPrefix('      fix: do it')).toBe(`      ${ESC}32mfix:${ESC}0m do it`);
    expect(colourPrefix('clusters/prod.yaml: relay.ip: error: no')).toBe('clusters/prod.yaml: relay.ip: error: no');
  });
});

describe('the glidepath command', () => {
  const printed = capturePrintedLines();
  const run = async (env: Record<string, string>, ...args: string[]) => {
    printed.clear();
    await main(args, { env });
    return { stdout: printed.stdout.join('\n'), stderr: printed.stderr.join('\n') };
  };

  it(
    'writes no colour into a pipe, colours stderr with FORCE_COLOR, and never stdout (fails before: no colour ' +
      'at all)',
    async () => {
      expect((await run({}, 'verfy')).stderr).not.toContain(ESC);
      expect((await run({ FORCE_COLOR: '1' }, 'verfy')).stderr).toContain(
        `${ESC}1;31merror:${ESC}0m unknown command "verfy"`,
      );
      expect((await run({ FORCE_COLOR: '0' }, 'verfy')).stderr).not.toContain(ESC);
      expect((await run({ FORCE_COLOR: '1' }, 'help')).stdout).not.toContain(ESC);
    },
  );
});
