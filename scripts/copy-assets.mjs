// tsc compiles TypeScript only; the SQL migrations ship beside the compiled data-access layer.
import { cpSync } from 'node:fs';

cpSync('libs/dal/migrations', 'dist/libs/dal/migrations', { recursive: true });
