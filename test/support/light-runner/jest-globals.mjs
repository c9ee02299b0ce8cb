// `@jest/globals` for test files run by jest-light-runner, which puts Jest's globals on globalThis.
export const { expect, it, test, describe, beforeAll, afterAll, beforeEach, afterEach, jest } = globalThis;
