// `npm pack` runs this (prepack): the bundle of the CLI into bundle/, which the installed package's
// bin/glidepath.mjs runs. npm runs prepack before prepare, so the validators it bundles are built here when missing.
import { ensureValidators } from './build-validators.mjs';
import { bundlePackage } from './bundle.mjs';

await ensureValidators();
await bundlePackage();
