export * from './template-renderer.js';
