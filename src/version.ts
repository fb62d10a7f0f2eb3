/** This package's version. Only the field is imported: the bundles then hold the version, not the whole package.json. */
import { version } from '../package.json';

export const VERSION: string = version;
