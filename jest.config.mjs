// Jest in ESM mode (Nest 12 is ESM-only): run through `node --experimental-vm-modules`.
const moduleNameMapper = {
  '^#common$': '<rootDir>/libs/common/src/index.ts',
  '^#dal$': '<rootDir>/libs/dal/src/index.ts',
  '^#application$': '<rootDir>/libs/application/src/index.ts',
  '^#event-processing$': '<rootDir>/libs/event-processing/src/index.ts',
  '^#event-processing/producer$': '<rootDir>/libs/event-processing/src/producer.ts',
  '^#providers$': '<rootDir>/libs/providers/src/index.ts',
  '^#realtime$': '<rootDir>/libs/realtime/src/index.ts',
  '^#api/(.*)\\.js$': '<rootDir>/apps/api/src/$1.ts',
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

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
];

/** Migrates a template database once per run; each e2e or engine test file starts from a copy of it. */
const templateDatabase = {
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
};

const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  // Type checking is tsc's job (npm run typecheck); tests transpile only, which keeps them fast.
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.test.json' }] },
  moduleNameMapper,
};

export default {
  testTimeout: 60_000,
  // Every e2e file starts a service (with its own embedded database): in one process their memory adds
  // up past what the machine has. A limit makes Jest run the files in a worker it replaces when the
  // worker grows beyond it (without a limit, a single-worker run would stay in Jest's own process).
  workerIdleMemoryLimit: '1GB',
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
