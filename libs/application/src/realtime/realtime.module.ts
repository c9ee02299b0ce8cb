import { Global, Module } from '@nestjs/common';
import { DalModule, InboxMessageRepository, SubscriberPresenceRepository } from '#dal';
import { RealtimePublisher } from './realtime-publisher.js';

/**
 * One RealtimePublisher per process, for every module that changes inbox messages (the api's
 * message routes, the worker's deliveries and snooze wake-ups). Global: it is process plumbing
 * like the logger, and the api's socket server hands it the server once it exists.
 */
@Global()
@Module({
  imports: [DalModule.forRepositories([InboxMessageRepository, SubscriberPresenceRepository])],
  providers: [RealtimePublisher],
  exports: [RealtimePublisher],
})
export class RealtimeModule {}
