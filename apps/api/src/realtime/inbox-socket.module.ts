import { Module } from '@nestjs/common';
import { ApiKeyCacheModule, CryptoModule } from '#application';
import { ApiProcessRepository, DalModule, InboxSessionRepository, SubscriberPresenceRepository } from '#dal';
import { HmacRequirement } from '../inbox/hmac-requirement.js';
import { InboxSessionValidator } from '../inbox/inbox-session.validator.js';
import { SessionTokens } from '../inbox/session-token.js';
import { InboxSocketServer } from './inbox-socket.server.js';
import { PresenceSweeper } from './presence-sweeper.js';
import { SocketSessionAudit } from './socket-session-audit.js';
import { SubscriberPresence } from './subscriber-presence.js';

/** The inbox socket on the api's HTTP port (RealtimePublisher, global, is what emits to it and closes its sockets). */
@Module({
  imports: [
    DalModule.forRepositories([SubscriberPresenceRepository, ApiProcessRepository, InboxSessionRepository]),
    CryptoModule,
    ApiKeyCacheModule,
  ],
  providers: [
    InboxSocketServer,
    SubscriberPresence,
    PresenceSweeper,
    SessionTokens,
    InboxSessionValidator,
    HmacRequirement,
    SocketSessionAudit,
  ],
})
export class InboxSocketModule {}
