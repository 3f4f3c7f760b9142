import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';
import tseslint from 'typescript-eslint';

/** The domains: business rules that any transport (the API, the portal, a script) may call. */
const DOMAINS = [
  'lib/rating',
  'lib/manifests',
  'lib/packages',
  'lib/webhooks',
  'lib/auth',
  'lib/accounts',
  'lib/schemas',
  'lib/errors',
  'lib/net',
  'lib/status',
  'lib/shipments',
  'lib/pagination',
  'lib/documents',
  'lib/request-log',
  'lib/close-out',
  'lib/webhook-events',
  'lib/jobs',
  'lib/cache',
  'lib/mail',
  'lib/teams',
  'lib/audit',
  'lib/idempotency',
  'lib/tracking',
  'lib/recipient-mail',
];
const TO_HTTP = {
  regex: '^(@/lib/|(\\.\\./)+)http(/|$)',
  message:
    'A domain does not import the HTTP layer: throw AppError from @/lib/errors/app-error; lib/http maps it (docs/decisions/layering.md).',
};
const UP_TO_TRANSPORT = [
  TO_HTTP,
  {
    regex: '^(@/lib/|(\\.\\./)+)(portal|spreadsheets|api)(/|$)',
    message:
      'A domain does not import the portal or the API document: they call the domain, not the other way (docs/decisions/layering.md).',
  },
];
const UP_TO_UI = [
  {
    regex: '^(@/|(\\.\\./)+)(app|components)(/|$)',
    message: 'lib/ does not import app/ or components/: those call lib/ (docs/decisions/layering.md).',
  },
];

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  // Type-aware rules on every TypeScript source (the project service reads tsconfig.json, which includes them all).
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
  },
  {
    // Tests read response bodies as `any` (`await res.json()`) and check them with `expect(...).toEqual(...)`,
    // which is the type check that matters there; typing each body would restate the schemas under test.
    // Test doubles implement async interfaces without awaiting anything (`load: async () => cards(1)`), so that
    // a throw becomes a rejection as in the real implementation. The other promise rules and the assertion rules stay on.
    files: ['e2e/**/*.{ts,tsx}', '**/*.test.{ts,tsx}', '**/*.spec.{ts,tsx}'],
    rules: {
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  // Layering (docs/decisions/layering.md): app/ → lib/http, lib/portal → the domains → lib/errors, lib/net, lib/db.
  // The domains never reach up to a transport or the UI; nothing in lib/ reaches app/ or components/.
  // One block per set of files: a later no-restricted-imports for the same file would replace, not add.
  {
    files: DOMAINS.map((folder) => `${folder}/**/*.{ts,tsx}`),
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...UP_TO_TRANSPORT, ...UP_TO_UI] }] },
  },
  {
    // A domain's tests may exercise the portal's schemas (lib/schemas/limits.test.ts), never the transport.
    files: DOMAINS.map((folder) => `${folder}/**/*.test.{ts,tsx}`),
    rules: { 'no-restricted-imports': ['error', { patterns: [TO_HTTP, ...UP_TO_UI] }] },
  },
  {
    files: ['lib/**/*.{ts,tsx}'],
    ignores: DOMAINS.map((folder) => `${folder}/**`),
    rules: { 'no-restricted-imports': ['error', { patterns: UP_TO_UI }] },
  },
  // One way to reach the data (docs/decisions/data-access.md): Prisma's models, or lib/sql.ts's sql`` statements on
  // a pg pool or client. In lib/, no Prisma raw queries and no pg query() calls with hand-written strings: only
  // lib/db.ts (transactions) and lib/sql.ts talk to pg directly.
  {
    files: ['lib/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', 'lib/db.ts', 'lib/sql.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^[$](query|execute)Raw/]',
          message: 'Raw SQL goes through lib/sql.ts: queryRows(pgPool(), sql`…`) (docs/decisions/data-access.md).',
        },
        {
          selector: "CallExpression[callee.property.name='query']",
          message:
            'Run statements with queryRows/queryRow/execute and a sql`…` statement from lib/sql.ts, not pg query() (docs/decisions/data-access.md).',
        },
      ],
    },
  },
  globalIgnores([
    '.next/**',
    'dist/**',
    'node_modules/**',
    '.data/**',
    'lib/generated/**',
    'sdk/generated/schema.ts',
    'test-results/**',
    'playwright-report/**',
    'next-env.d.ts',
    'bench/results/**',
  ]),
]);
