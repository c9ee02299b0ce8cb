// `npm run test:reliability`: crash, outage, overload, fuzzing, isolation, secrets and rate-limit
// scenarios against real PostgreSQL and Redis. Not part of `npm test` (its files are *.reliability.ts).
import base from './jest.config.mjs';

process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';
process.env.REDIS_URL ||= 'redis://127.0.0.1:6379';
// Read by test/support/light-runner/guards.mjs in the test processes.
process.env.TEST_TIMEOUT_MS ||= '300000';

const e2e = base.projects.find((project) => project.displayName === 'e2e');

export default {
  ...e2e,
  displayName: 'reliability',
  testMatch: ['<rootDir>/test/reliability/**/*.reliability.ts'],
  testPathIgnorePatterns: [],
  // Process scenarios measure throughput and memory: one file at a time on a shared machine.
  maxWorkers: 1,
};
