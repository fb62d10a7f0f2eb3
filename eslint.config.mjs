// npm run lint: typescript-eslint's recommended rules on the sources, tests and scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What Node gives a script, and lib/ as built from src/, without an import (TypeScript gets them from @types/node). */
const NODE_GLOBALS = [
  'process',
  'console',
  'URL',
  'setTimeout',
  'clearTimeout',
  'setInterval',
  'clearInterval',
  'performance',
  'structuredClone',
  'Buffer',
];

export default tseslint.config(
  { ignores: ['imports/', 'build/', 'bundle/', 'generated/', 'dist/', 'node_modules/', '.glidepath-cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Refusing control characters in names and paths is what those patterns are for.
      'no-control-regex': 'off',
      // `_name` marks a value that is destructured away on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.mjs', 'lib/**/*.js'],
    languageOptions: { globals: Object.fromEntries(NODE_GLOBALS.map((name) => [name, 'readonly'])) },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // Tests reach into rendered YAML of any shape.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The stand-in declares `url` with a placeholder before its server listens; the placeholder is never read.
    files: ['test/gitops/helpers/github-api-stand-in.ts'],
    rules: { 'no-useless-assignment': 'off' },
  },
);
