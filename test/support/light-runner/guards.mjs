// jest-light-runner runs tests in plain Node processes without Jest's guards, so this setup file puts them
// back. Without a time limit, a test that never settles would hold its whole pass until CI's own limit: tests,
// `each` tables and hooks get the third argument, or TEST_TIMEOUT_MS (set by the reliability config), or 60 s.
// Without handlers, an error thrown outside any test (a stray callback) or a rejection nobody handles would end
// the test process, and Jest would wait for its result for ever: an uncaught exception fails the test or hook
// that is running when it happens, as under Jest's own runner; an unhandled rejection is printed.
import { clearTimeout, setTimeout } from 'node:timers';

const DEFAULT_TIMEOUT_MS = Number(process.env.TEST_TIMEOUT_MS ?? 60_000);

let uncaught;
process.on('uncaughtException', (error) => {
  uncaught ??= error;
});
process.on('unhandledRejection', (reason) => {
  console.error('unhandled rejection in a test process:', reason);
});

function guarded(fn, timeoutMs, what) {
  if (typeof fn !== 'function') return fn;
  const limit = timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return async (...args) => {
    let timer;
    const expired = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} did not finish within ${limit} ms`)), limit);
    });
    try {
      await Promise.race([Promise.resolve().then(() => fn(...args)), expired]);
    } finally {
      clearTimeout(timer);
    }
    if (uncaught) {
      const error = uncaught;
      uncaught = undefined;
      throw error;
    }
  };
}

function guardedTest(register) {
  const wrapped = (name, fn, timeoutMs) => register(name, guarded(fn, timeoutMs, `test "${name}"`), timeoutMs);
  Object.assign(wrapped, register);
  wrapped.each =
    (...table) =>
    (name, fn, timeoutMs) =>
      register.each(...table)(name, guarded(fn, timeoutMs, `test "${name}"`), timeoutMs);
  return wrapped;
}

globalThis.it = guardedTest(globalThis.it);
globalThis.test = guardedTest(globalThis.test);
for (const hook of ['beforeAll', 'afterAll', 'beforeEach', 'afterEach']) {
  const register = globalThis[hook];
  globalThis[hook] = (fn, timeoutMs) => register(guarded(fn, timeoutMs, hook), timeoutMs);
}
