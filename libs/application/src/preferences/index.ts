export * from './preference-resolver.js';
export * from './subscriber-preference.service.js';
