import { Module } from '@nestjs/common';
import { ApiProcessRepository, DalModule, SubscriberRepository } from '#dal';
import { SessionTokens } from '../inbox/session-token.js';
import { InboxSocketServer } from './inbox-socket.server.js';
import { PresenceSweeper } from './presence-sweeper.js';
import { SubscriberPresence } from './subscriber-presence.js';

/** The inbox socket on the api's HTTP port (RealtimePublisher, global, is what emits to it). */
@Module({
  imports: [DalModule.forRepositories([SubscriberRepository, ApiProcessRepository])],
  providers: [InboxSocketServer, SubscriberPresence, PresenceSweeper, SessionTokens],
})
export class InboxSocketModule {}
