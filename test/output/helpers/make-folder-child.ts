/**
 * Makes the folders `<root>/<i>/a/b/c` for i < count, starting at the same moment as its twin (argv: root, count,
 * start).
 */
import { join } from 'node:path';
import { makeFolder } from '../../../src/output/out-dir-fs';

const [root = '', count = '0', start = '0'] = process.argv.slice(2);
// Asleep until just before the start, then spinning to it: both twins begin within a millisecond.
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.max(0, Number(start) - Date.now() - 3));
while (Date.now() < Number(start)) {
  // the last few milliseconds
}
for (let i = 0; i < Number(count); i++) makeFolder(join(root, String(i), 'a', 'b', 'c'), 'the output folder');
