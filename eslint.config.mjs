// The linter (issue 28): a few type-aware rules that catch real mistakes, not style (Biome formats,
// biome.json, and checks import cycles). `npm run lint` runs it with the typechecker and Biome;
// docs/decisions/0172 says why these rules and these tools.
import tseslint from 'typescript-eslint';

export default [
  // vitest.<name>.config.ts: extra runner configurations outside every program (vitest.config.ts is the tests').
  {
    ignores: [
      '**/dist/**',
      '**/bundle/**',
      '**/node_modules/**',
      '**/*.d.ts',
      'data/**',
      'coverage/**',
      '.test-results/**',
      'vitest.*.config.ts',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        tsconfigRootDir: import.meta.dirname,
        // Each package's own program, and the tests' (which reach the sources through paths).
        project: ['./packages/*/tsconfig.json', './apps/server/tsconfig.json', './examples/*/tsconfig.json', './tsconfig.test.json'],
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits, returns or hands on: its failure is an unhandled rejection, its work unordered.
      '@typescript-eslint/no-floating-promises': 'error',
      // A promise where a boolean or a void callback is expected (`if (p)`, `emitter.on('x', async …)`).
      '@typescript-eslint/no-misused-promises': 'error',
      // `await` of something that is not a promise: a misread type.
      '@typescript-eslint/await-thenable': 'error',
      // An expression whose result is dropped (`a === b;`, `x?.y;`): a statement that does nothing.
      '@typescript-eslint/no-unused-expressions': 'error',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    rules: { 'no-unused-expressions': 'error' },
  },
];
