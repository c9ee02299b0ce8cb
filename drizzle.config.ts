import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './libs/dal/src/schema/index.ts',
  out: './libs/dal/migrations',
});
