// Node module hooks that load the project's TypeScript sources as they are (transpiled, not type-checked:
// that is `npm run typecheck`'s job). Test files run in plain Node processes that keep the modules they
// loaded from one test file to the next, instead of loading the whole graph again for every file.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../../../', import.meta.url);
const jestGlobals = new URL('./jest-globals.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === '@jest/globals') return { url: jestGlobals, shortCircuit: true };
  // package.json's `imports` aliases lead to dist/ by default and to the sources under the `types` condition.
  if (specifier.startsWith('#')) {
    return nextResolve(specifier.replace(/\.js$/, '.ts'), { ...context, conditions: ['types', ...context.conditions] });
  }
  // The sources import each other by their compiled names (`./store.js` for `./store.ts`).
  if (specifier.startsWith('.') && specifier.endsWith('.js') && /\.ts(\?|$)/.test(context.parentURL ?? '')) {
    const source = new URL(specifier.replace(/\.js$/, '.ts'), context.parentURL);
    if (existsSync(fileURLToPath(source))) return { url: source.href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

export async function load(url, context, nextLoad) {
  // The runner imports each test file with a query string, so that a file imported twice runs twice.
  const fileName = url.startsWith('file:') ? fileURLToPath(url) : '';
  if (!fileName.endsWith('.ts')) return nextLoad(url, context);
  return { format: 'module', source: await transpile(fileName), shortCircuit: true };
}

/** Kept on disk by content, so the test processes after the first one load each module ready-made. */
const cacheDirectory = new URL('.test-cache/typescript/', root);
mkdirSync(cacheDirectory, { recursive: true });
const tsconfigText = readFileSync(new URL('tsconfig.json', root), 'utf8');
const typescriptVersion = JSON.parse(
  readFileSync(new URL('node_modules/typescript/package.json', root), 'utf8'),
).version;

let compilerOptions;

/**
 * The project's tsconfig.json (decorators and their metadata, class fields, target), emitting ES modules
 * with the source map inline: Node loads the output as it is.
 */
function projectCompilerOptions(ts) {
  compilerOptions ??= {
    ...ts.convertCompilerOptionsFromJson(JSON.parse(tsconfigText).compilerOptions, fileURLToPath(root)).options,
    module: ts.ModuleKind.ESNext,
    sourceMap: false,
    inlineSourceMap: true,
    inlineSources: true,
  };
  return compilerOptions;
}

async function transpile(fileName) {
  const source = readFileSync(fileName, 'utf8');
  const key = createHash('sha256')
    .update(typescriptVersion)
    .update(tsconfigText)
    .update(fileName)
    .update(source)
    .digest('hex');
  const cached = new URL(`${key}.js`, cacheDirectory);
  if (existsSync(cached)) return readFileSync(cached, 'utf8');
  const { default: ts } = await import('typescript');
  const { outputText } = ts.transpileModule(source, { compilerOptions: projectCompilerOptions(ts), fileName });
  // Several test processes may transpile the same file at once: each writes its own file, then renames.
  const partial = new URL(`${key}.${process.pid}.tmp`, cacheDirectory);
  writeFileSync(partial, outputText);
  renameSync(partial, cached);
  return outputText;
}
