export * from './template-engine.js';
export * from './template-errors.js';
export * from './templates.module.js';
export * from './content-slot.js';
export * from './step-rendering.js';
