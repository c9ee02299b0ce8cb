// `npm run test:reliability`: crash, outage, overload, fuzzing, isolation, secrets and rate-limit
// scenarios against real PostgreSQL and Redis. Not part of `npm test` (its files are *.reliability.ts).
// Two test files at a time: the scenarios mostly wait on spawned processes, recoveries and timers. The
// scenarios that measure throughput and memory run afterwards, one at a time, with the machine to
// themselves (jest.reliability-measured.config.mjs).
import base from './jest.config.mjs';

process.env.DATABASE_URL ||= 'postgres://postgres@127.0.0.1:5432/test';
process.env.REDIS_URL ||= 'redis://127.0.0.1:6379';
// Read by test/support/light-runner/guards.mjs in the test processes.
process.env.TEST_TIMEOUT_MS ||= '300000';

const e2e = base.projects.find((project) => project.displayName === 'e2e');

/** Scenarios whose assertions are throughput, latency or memory figures. */
export const MEASURED_SCENARIOS = ['<rootDir>/test/reliability/overload.reliability.ts'];

export default {
  ...e2e,
  displayName: 'reliability',
  testMatch: ['<rootDir>/test/reliability/**/*.reliability.ts'],
  testPathIgnorePatterns: MEASURED_SCENARIOS.map((path) => path.replace('<rootDir>', '')),
  maxWorkers: 2,
};
