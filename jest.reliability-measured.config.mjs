// The reliability scenarios that measure throughput, latency or memory: one file at a time, after the
// others (the second half of `npm run test:reliability`).
import reliability, { MEASURED_SCENARIOS } from './jest.reliability.config.mjs';

export default {
  ...reliability,
  displayName: 'reliability (measured)',
  testMatch: MEASURED_SCENARIOS,
  testPathIgnorePatterns: [],
  maxWorkers: 1,
};
