export * from './preference-resolver.js';
export * from './subscriber-preference.service.js';
export * from './preference-writer.service.js';
