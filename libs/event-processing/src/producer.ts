/**
 * The queue's producing side: the job catalogue, the typed JobQueue and the module that registers
 * the queues, plus the backend choice made at boot. The api imports only this entry, so the
 * processors (and the providers and templates they pull in) stay out of its import graph.
 */
export * from './queue/job-catalogue.js';
export * from './queue/queue-entries.js';
export * from './queue/job-queue.service.js';
export * from './queue/queue-backend.js';
export * from './queue/queue.module.js';
export * from './queue/queue-waits.js';
