// tsc compiles TypeScript only; the SQL migrations ship beside the compiled data-access layer, the
// inbox demo's page beside its controller.
import { cpSync } from 'node:fs';

cpSync('libs/dal/migrations', 'dist/libs/dal/migrations', { recursive: true });
cpSync('apps/api/src/inbox-demo/page', 'dist/apps/api/src/inbox-demo/page', { recursive: true });
