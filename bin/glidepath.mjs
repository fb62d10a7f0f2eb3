#!/usr/bin/env node
// The `glidepath` command. In a clone of the repository (src/ is there) it runs scripts/cli.mjs, which rebuilds the
// bundle when a source changed; in an installed package it runs the bundle that `npm run pack` put into bundle/.
import { existsSync } from 'node:fs';

if (existsSync(new URL('../src/cli.ts', import.meta.url))) {
  await import('../scripts/cli.mjs');
} else {
  const { run } = await import('../bundle/cli.mjs');
  await run(process.argv.slice(2));
}
