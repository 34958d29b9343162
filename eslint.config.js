import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { featureBoundariesPlugin } from './scripts/eslint-feature-boundaries.mjs';

/** Dependency direction: domain and forecast import no app; web never imports server and vice versa. */
const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const SERVER_NOT_WEB = {
  group: ['@ps/web', '**/apps/web/**'],
  message: 'The server never imports the web app.',
};
/** `../other-module/file` from inside a module; `../other-module` (its index) is the way in. */
const OTHER_MODULE_INTERNALS = {
  regex: '^\\.\\./[\\w-]+/.+',
  message: "Import another module through its index ('../module'), never its files.",
};
/** The schema a migration left behind is fixed once it ships: nothing may reuse or reshape it. */
const MIGRATIONS = {
  group: ['**/migrations/0*', './0*'],
  message:
    'Runtime code never imports a migration; the schema today is in db/schema.sql (npm run schema:dump).',
};
const WEB_NOT_SERVER = {
  group: ['@ps/server', '**/apps/server/**', '@ps/forecast'],
  message: 'The web app talks to the server over HTTP only.',
};
/**
 * A web feature reaches another only through its index (`@/features/x`), as server modules do;
 * shared hooks live in lib/ and shared components in components/. Screens loaded lazily by the
 * router (`import('@/features/x/Page')`) are a feature's other way in.
 */
const WEB_FEATURES = readdirSync(new URL('apps/web/src/features', import.meta.url));
const otherFeatureInternals = (own) => ({
  group: ['@/features/*/**', ...(own ? [`!@/features/${own}/**`] : [])],
  message: "Import another feature through its index ('@/features/name'), never its files.",
});
const featureBoundaries = featureBoundariesPlugin(resolve(import.meta.dirname, 'apps/web/src/features'));
const SQL_IN_REPOSITORIES = 'Queries live in *.repository.ts / *.sql.ts; import kysely types only here.';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '**/*.config.js',
      'scripts/**',
      'test-results/**',
      // Plain browser scripts served as they are (the theme pre-paint); not part of a TS project.
      'apps/web/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Root config files belong to no workspace tsconfig; lint them with default settings.
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['packages/domain/**', 'packages/forecast/**'],
    rules: restrict([
      { group: ['@ps/server', '@ps/web', '**/apps/**'], message: 'Domain packages import no app.' },
      {
        group: ['react', 'react-dom', 'fastify', 'kysely', 'pg'],
        message: 'Domain packages stay free of React, HTTP and SQL.',
      },
    ]),
  },
  {
    files: ['apps/web/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, local: featureBoundaries },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'local/no-relative-feature-internals': 'error',
      ...restrict([WEB_NOT_SERVER, otherFeatureInternals(null)]),
    },
  },
  ...WEB_FEATURES.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**`],
    rules: restrict([WEB_NOT_SERVER, otherFeatureInternals(feature)]),
  })),
  {
    files: ['apps/server/**'],
    rules: restrict([SERVER_NOT_WEB, MIGRATIONS]),
  },
  // Server layering (docs/architecture.md): a module reaches another only through its index; SQL
  // lives in repositories (*.repository.ts, *.sql.ts) and db/; lib never imports a feature.
  {
    files: ['apps/server/src/modules/**'],
    ignores: ['**/*.repository.ts', '**/*.sql.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'kysely', message: SQL_IN_REPOSITORIES, allowTypeImports: true }],
          patterns: [SERVER_NOT_WEB, OTHER_MODULE_INTERNALS, MIGRATIONS],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/**/*.repository.ts', 'apps/server/src/modules/**/*.sql.ts'],
    rules: restrict([SERVER_NOT_WEB, OTHER_MODULE_INTERNALS, MIGRATIONS]),
  },
  {
    files: ['apps/server/src/lib/**', 'apps/server/src/db/**'],
    rules: restrict([
      SERVER_NOT_WEB,
      MIGRATIONS,
      { group: ['**/modules/**', '../modules'], message: 'lib and db never import a feature module.' },
    ]),
  },
  // A migration is self-contained: it runs the same SQL whatever other code becomes later.
  {
    files: ['apps/server/src/db/migrations/0*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.|@ps/)',
              message:
                'A migration imports nothing of ours (copy what it needs): it must never change once shipped.',
            },
          ],
        },
      ],
    },
  },
  // The migration list, and tests that run or check a migration, are the only importers.
  {
    files: ['apps/server/src/db/migrations/index.ts', 'apps/server/test/**', 'apps/server/src/**/*.test.ts'],
    rules: restrict([SERVER_NOT_WEB]),
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'bench/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/unbound-method': 'off' },
  },
);
