/**
 * kubectl printing JSON of the wrong shape (`null`, a list, a list item that is null, metadata that is a string):
 * a stand-in kubectl, or a proxy in front of the API server, can. check-live says so (exit 1, naming the read), or
 * goes on without what it cannot read; it never prints a TypeError's stack trace.
 */
import { describe, expect, it } from 'vitest';
import { capturePrintedLines } from '../helpers/console';
import { readyProd } from './recorded-prod';
import { useLiveHarness } from './harness';

const printed = capturePrintedLines();
const { checkLive } = useLiveHarness(printed);

const SHAPES = [
  'null',
  '[]',
  '5',
  '"text"',
  '{"items": [null, 5, "x", []]}',
  '{"items": [{"metadata": null, "spec": null, "status": null}]}',
  '{"items": [{"metadata": {"labels": "x", "annotations": [1], "name": 5}, "spec": {"template": null}}]}',
  '{"items": [{"metadata": {}, "spec": {"template": {"spec": {"containers": [null, {"image": 5}]}}}}]}',
  '{"metadata": null, "data": null}',
  '{"metadata": {"labels": [1], "annotations": "x"}, "data": {"a": 5, "context": 7}}',
  '{"metadata": {"annotations": {"notified.notifications.argoproj.io": 5}}, "data": [1, 2]}',
];

describe('check-live on JSON of the wrong shape', () => {
  const reads = Object.keys(readyProd().calls).filter((key) => key.endsWith('-o json'));

  it.each(SHAPES)('%s for every JSON read: no stack trace, exit 0, 1 or 3', async (shape) => {
    for (const read of reads) {
      const { calls } = readyProd();
      calls[read] = { stdout: shape };
      const run = await checkLive(calls).catch((error: unknown) => ({ code: -1, out: '', err: String(error) }));
      expect({ read, err: run.err }).not.toMatchObject({ err: expect.stringMatching(/TypeError|\n\s+at /) });
      expect({ read, code: run.code }).toMatchObject({ code: expect.toSatisfy((c: number) => [0, 1, 3].includes(c)) });
    }
  });
});
