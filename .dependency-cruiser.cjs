/**
 * Architecture rules, checked by `npm run lint:architecture` (dependency-cruiser over apps/ and libs/).
 *
 * Layers, each importing only those below it:
 *   common            nothing
 *   dal, providers    common
 *   application       common, dal
 *   realtime          common, dal, application
 *   event-processing  common, dal, application, providers
 *   apps              any lib, through its entry only (`#common`, `#dal`, ..., libs/<lib>/src/index.ts)
 * The api (apps/api) produces jobs through `#event-processing/producer` and never imports the
 * consumers, except in the composition root that mounts them for ROLE=worker and ROLE=all.
 *
 * common and application import no infrastructure package (Redis, PostgreSQL driver, queue, socket.io,
 * Swagger): those belong to dal, realtime, event-processing and the apps.
 *
 * Tests: test/ and bench/ are not cruised (they reach into the libs on purpose, e.g. a repository
 * for fixtures). Spec files inside libs/ and apps/ (*.spec.ts, *.test.ts) follow the layer rules
 * like the code next to them and are only exempt from the devDependency rule.
 */

/** The files other code may import a lib through: the entries package.json "imports" maps. */
const LIB_ENTRIES = ['^libs/[^/]+/src/index\\.ts$', '^libs/event-processing/src/producer\\.ts$'];
const SPEC_FILES = '\\.(spec|test)\\.ts$';

/** A lib may import only the listed libs (and itself). */
const layer = (lib, allowed, why) => ({
  name: `${lib}-layer`,
  severity: 'error',
  comment: `libs/${lib} may import ${allowed.length ? `only ${allowed.map((name) => `libs/${name}`).join(', ')}` : 'no other lib'}: ${why}`,
  from: { path: `^libs/${lib}/` },
  to: { path: '^libs/', pathNot: [lib, ...allowed].map((name) => `^libs/${name}/`) },
});

/**
 * npm packages that reach infrastructure or describe HTTP: Redis, the PostgreSQL driver, the queue,
 * socket.io and its adapters and emitters, Swagger. A type-only import resolves to its @types package.
 */
const INFRASTRUCTURE_PACKAGES = [
  'ioredis',
  'pg',
  'bullmq',
  '@nestjs/bullmq',
  '@nestjs/swagger',
  'socket\\.io[^/]*',
  '@socket\\.io/[^/]+',
];

/** A lib that may not import the infrastructure packages. */
const noInfrastructure = (lib, why) => ({
  name: `${lib}-no-infrastructure`,
  severity: 'error',
  comment: `libs/${lib} may not import ioredis, pg, bullmq, @nestjs/bullmq, @nestjs/swagger, socket.io* or @socket.io/*: ${why}`,
  from: { path: `^libs/${lib}/` },
  to: { path: `(?:^|/)node_modules/(?:@types/)?(?:${INFRASTRUCTURE_PACKAGES.join('|')})/` },
});

module.exports = {
  forbidden: [
    layer('common', [], 'it is the base every other lib builds on.'),
    layer('dal', ['common'], 'data access knows tables and queries, not the rules that use them.'),
    layer('providers', ['common'], 'delivery adapters take a message and credentials, nothing else of the service.'),
    layer(
      'application',
      ['common', 'dal'],
      'the logic shared by api and worker must not depend on the queue, the processors or the adapters.',
    ),
    layer(
      'realtime',
      ['common', 'dal', 'application'],
      'the transports between processes carry what libs/application publishes; the api and the worker use them.',
    ),
    layer(
      'event-processing',
      ['common', 'dal', 'application', 'providers'],
      'the worker sits on top of the libs and below the apps.',
    ),
    noInfrastructure('common', 'it is the base every layer builds on, infrastructure included.'),
    noInfrastructure(
      'application',
      'the rules shared by api and worker stay free of transports and HTTP documentation. Redis and PostgreSQL ' +
        'clients for realtime belong in libs/realtime, queue code in libs/event-processing, Swagger decorators in ' +
        'apps/api DTOs.',
    ),
    {
      name: 'libs-not-to-apps',
      severity: 'error',
      comment: 'A lib never imports from apps/: the apps compose the libs, not the other way round.',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'lib-through-entry',
      severity: 'error',
      comment:
        'Import a lib through its entry (#common, #dal, #application, #event-processing, #event-processing/producer, ' +
        '#providers, #realtime), never a file inside it: the entry is the lib’s public surface. Export what you need from ' +
        'libs/<lib>/src/index.ts.',
      from: { path: '^(?:apps|libs)/([^/]+)/' },
      to: { path: '^libs/', pathNot: ['^libs/$1/', ...LIB_ENTRIES] },
    },
    {
      name: 'api-produces-only',
      severity: 'error',
      comment:
        'The api enqueues through #event-processing/producer (job catalogue, JobQueue, QueueModule, queue backend) ' +
        'and does not import the worker’s processors. Code both sides need belongs in libs/application or ' +
        'libs/common. Only apps/api/src/app.module.ts, the composition root of every role, mounts EventProcessingModule.',
      from: { path: '^apps/api/', pathNot: '^apps/api/src/app\\.module\\.ts$' },
      to: { path: '^libs/event-processing/', pathNot: '^libs/event-processing/src/producer\\.ts$' },
    },
    {
      name: 'producer-entry-stays-narrow',
      severity: 'error',
      comment:
        '#event-processing/producer must not lead to the processors (fan-out, steps, recovery): it is what the api ' +
        'imports, and through it the processors, adapters and templates would load in the api.',
      from: { path: '^libs/event-processing/src/producer\\.ts$' },
      to: {
        path: '^libs/event-processing/src/(?:fan-out|steps|recovery)/|event-processing\\.module\\.ts$',
        reachable: true,
      },
    },
    {
      name: 'api-areas-share-no-services',
      severity: 'error',
      comment:
        'An api area (events, topics, subscribers, ...) does not use another area’s services, use cases, controllers ' +
        'or modules. Move what both need to its named home: apps/api/src/http/ (HTTP concerns: errors, validation, ' +
        'pagination, rate limit, idempotency, body limits, client address), apps/api/src/queue/ (adapters onto the ' +
        'job queue), or a lib; DTOs may be shared.',
      from: { path: '^apps/api/src/([^/]+)/' },
      to: {
        path: '^apps/api/src/[^/]+/(?:.+\\.(?:service|controller|module)\\.ts$|use-cases/)',
        pathNot: '^apps/api/src/$1/',
      },
    },
    {
      name: 'http-holds-http-only',
      severity: 'error',
      comment:
        'apps/api/src/http/ holds HTTP concerns only. Code that enqueues jobs is a queue adapter: it goes to ' +
        'apps/api/src/queue/ (or to the area that owns it).',
      from: { path: '^apps/api/src/http/' },
      to: { path: '^libs/event-processing/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'Import cycle. Under ESM a cycle can hand a module an undefined binding at load time (a class used by a ' +
        'decorator, a constant); move the shared part into a third file both import.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'dashboard-is-a-browser-app',
      severity: 'error',
      comment:
        'apps/dashboard runs in the browser and talks to the service over its HTTP API only: it imports neither the ' +
        'api, the worker nor a lib (their code needs Node and the database), and nothing imports it.',
      from: { path: '^apps/dashboard/src/' },
      to: { path: ['^(?:libs|apps/(?!dashboard/))', '^node:'], dependencyTypesNot: ['npm', 'npm-dev'] },
    },
    {
      name: 'nothing-imports-the-dashboard',
      severity: 'error',
      comment: 'The api serves the dashboard’s built files; no server code imports its sources.',
      from: { path: '^(?:libs|apps/(?!dashboard/))' },
      to: { path: '^apps/dashboard/' },
    },
    {
      name: 'not-to-dev-dependency',
      severity: 'error',
      comment:
        'Shipped code imports a devDependency, which the production install (npm ci --omit=dev) leaves out. Make it a ' +
        'dependency, or import only its types (`import type`). The dashboard is the exception: its packages are ' +
        'bundled at build time and ship as static files.',
      from: { path: '^(?:apps|libs)/', pathNot: [SPEC_FILES, '^apps/dashboard/'] },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-unresolvable',
      severity: 'error',
      comment:
        'An import dependency-cruiser cannot resolve, so no rule can check it: a new `#` entry belongs in package.json ' +
        '"imports" (types + default; the tests load the types entry, the sources).',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a type still ties one layer to another.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // The `#` entries resolve to their TypeScript sources through the "types" condition of package.json "imports".
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'default'],
      extensions: ['.ts', '.tsx', '.js'],
    },
    skipAnalysisNotInRules: true,
  },
};
