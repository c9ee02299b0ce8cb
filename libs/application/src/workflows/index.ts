export * from './slugify.js';
