// Jest setup file of every project: lets the test process import TypeScript, with stack traces that name
// the TypeScript lines.
import { register } from 'node:module';

process.setSourceMapsEnabled(true);
register('./typescript-hooks.mjs', import.meta.url);
