// PGlite runs PostgreSQL as WebAssembly, and V8 itself can abort a Node process that creates and closes many
// such databases (a failed CHECK in its JIT-page registry, "# Fatal error … Check failed: jit_page…", an open
// V8 bug seen on Node 22 to 26). The test file that process was running is reported as "Worker exited
// unexpectedly" without a single failed assertion. Such a file runs once more in a fresh process and the rerun's
// result becomes the file's result; a file that failed any other way is never rerun.
//
//   node .ci/runtime-aborts.mjs files <results.json> <pass.log>     prints the files to run again, one per line
//   node .ci/runtime-aborts.mjs merge <results.json> <rerun.json>   puts the rerun's outcome into results.json
//                                                                   and exits 0 only if nothing failed
import { readFileSync, writeFileSync } from 'node:fs';

const RUNTIME_ABORT = /^# Fatal error in .*\n# Check failed: /m;
const PROCESS_DIED = 'Worker exited unexpectedly';

const [command, resultsFile, otherFile] = process.argv.slice(2);
const read = (file) => JSON.parse(readFileSync(file, 'utf8'));

if (command === 'files') {
  if (!RUNTIME_ABORT.test(readFileSync(otherFile, 'utf8'))) process.exit(0);
  const aborted = read(resultsFile).testResults.filter(
    (suite) => suite.assertionResults.length === 0 && (suite.message ?? '').includes(PROCESS_DIED),
  );
  for (const suite of aborted) console.log(suite.name);
} else if (command === 'merge') {
  const results = read(resultsFile);
  const rerun = read(otherFile);
  const rerunNames = new Set(rerun.testResults.map((suite) => suite.name));
  const replaced = results.testResults.filter((suite) => rerunNames.has(suite.name)).length;
  results.testResults = [...results.testResults.filter((suite) => !rerunNames.has(suite.name)), ...rerun.testResults];
  results.numPassedTests += rerun.numPassedTests;
  results.numFailedTests += rerun.numFailedTests;
  results.numRuntimeErrorTestSuites += rerun.numRuntimeErrorTestSuites - replaced;
  writeFileSync(resultsFile, JSON.stringify(results));
  const rerunFailed = rerun.numFailedTests + rerun.numRuntimeErrorTestSuites;
  console.log(`${replaced} file(s) run again after V8 aborted: ${rerun.numPassedTests} passed, ${rerunFailed} failed`);
  process.exit(results.numFailedTests + results.numRuntimeErrorTestSuites === 0 ? 0 : 1);
} else {
  console.error('usage: runtime-aborts.mjs files|merge <results.json> <log|rerun.json>');
  process.exit(2);
}
