// Test files run in plain Node processes (jest-light-runner), each process running one file after another
// with the modules it has loaded: Jest's default runner loads the whole module graph again, in a VM
// context, for every file, which cost about half of the suite's CPU time. The setup file teaches Node to
// load the TypeScript sources; `npm run typecheck` checks their types.

/**
 * Files whose subject does not change with the database or queue backend: the official SDK's shape
 * checks and hostile-input handling (templates, filters, body sizes, addresses). The embedded pass
 * runs them; the server pass, which exists to exercise PostgreSQL and Redis, skips them to keep CI short.
 */
const BACKEND_AGNOSTIC = [
  '<rootDir>/test/sdk/',
  '<rootDir>/test/template-security.e2e.ts',
  '<rootDir>/test/hostile-filters.e2e.ts',
  '<rootDir>/test/body-limits.e2e.ts',
  '<rootDir>/test/subscriber-validation.e2e.ts',
  '<rootDir>/test/email-injection.e2e.ts',
  '<rootDir>/test/smtp-ssrf.e2e.ts',
  '<rootDir>/test/workflows-dir.e2e.ts',
  '<rootDir>/test/spec-coverage.e2e.ts',
  '<rootDir>/test/openapi-document.e2e.ts',
  '<rootDir>/test/dashboard-serving.e2e.ts',
];

/** Migrates a template database once per run; each e2e or engine test file starts from a copy of it. */
const templateDatabase = {
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
};

const common = {
  // Child processes rather than worker threads: each has its own environment variables, working directory
  // and heap, as the service's processes do.
  runner: ['jest-light-runner', { runtime: 'child_process' }],
  setupFiles: ['<rootDir>/test/support/light-runner/register.mjs'],
  setupFilesAfterEnv: ['<rootDir>/test/support/light-runner/guards.mjs'],
  // Where tests and sources are: Jest then never walks dist/ or release/ (the production bundle a test builds).
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
};

export default {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e.ts'],
      // test/server-only needs a PostgreSQL server (several processes on one database): CI's server pass runs it.
      // test/process.e2e.ts, the quick start and boot output tests and test/inbox/inbox-cli.e2e.ts start the
      // service on its embedded defaults whatever DATABASE_URL says: the embedded pass runs them.
      testPathIgnorePatterns: process.env.DATABASE_URL
        ? [
            '<rootDir>/test/process.e2e.ts',
            '<rootDir>/test/quick-start.e2e.ts',
            '<rootDir>/test/quick-start-readme.e2e.ts',
            '<rootDir>/test/boot-output.e2e.ts',
            '<rootDir>/test/inbox/inbox-cli.e2e.ts',
            ...BACKEND_AGNOSTIC,
          ]
        : ['<rootDir>/test/server-only/'],
      ...templateDatabase,
    },
    // The engine without HTTP (docs/contributing.md#tests): on both backends, like e2e.
    { ...common, displayName: 'engine', testMatch: ['<rootDir>/test/engine/**/*.engine.ts'], ...templateDatabase },
  ],
};
