import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { InboxSessionRepository, type SubscriberRow } from '#dal';
import { HmacRequirement } from './hmac-requirement.js';
import type { InboxSession } from './session-token.js';

/**
 * Whether a verified session token still speaks for someone: its environment exists, its subscriber
 * row is live and of the token's generation (not deleted since, even if restored), and the session
 * proved its subscriberId with a hash if the environment now requires one. The same rules for every
 * HTTP request, every socket handshake and the sweep of open sockets.
 */
@Injectable()
export class InboxSessionValidator {
  constructor(
    private readonly sessions: InboxSessionRepository,
    private readonly hmac: HmacRequirement,
  ) {}

  /** The session's subscriber row as it is now; a 401 naming why the session ended otherwise. */
  async check(session: InboxSession): Promise<SubscriberRow> {
    const state = await this.sessions.state(session.environmentId, session.subscriberRowId, session.proofKeyId);
    if (
      !state ||
      state.organizationId !== session.organizationId ||
      state.subscriber.subscriberId !== session.subscriberId ||
      state.subscriber.generation !== session.generation
    )
      throw new DomainError('UNAUTHORIZED', 'The subscriber of this inbox session no longer exists');
    const proven = session.hashProven && (session.proofKeyId === undefined || state.proofKeyLive);
    if (!proven && this.hmac.required(state)) throw session.hashProven ? proofKeyRevoked() : hashRequired();
    return state.subscriber;
  }

  /** The sessions among these that have ended (for sockets opened earlier): three statements for any number. */
  async ended(sessions: InboxSession[]): Promise<InboxSession[]> {
    const proofKeys = sessions.flatMap((s) => (s.hashProven && s.proofKeyId ? [s.proofKeyId] : []));
    const [generations, liveKeys] = await Promise.all([
      this.sessions.liveGenerations([...new Set(sessions.map((s) => s.subscriberRowId))]),
      this.sessions.liveKeys([...new Set(proofKeys)]),
    ]);
    const isProven = (s: InboxSession) => s.hashProven && (s.proofKeyId === undefined || liveKeys.has(s.proofKeyId));
    const unproven = [...new Set(sessions.filter((s) => !isProven(s)).map((s) => s.environmentId))];
    const switches = await this.sessions.switches(unproven);
    const hashRequiredIn = new Set(unproven.filter((id) => this.hmac.required(switches.get(id) ?? ENDED)));
    return sessions.filter((session) => {
      const live = generations.get(session.subscriberRowId);
      return (
        live?.environmentId !== session.environmentId ||
        live.generation !== session.generation ||
        (!isProven(session) && hashRequiredIn.has(session.environmentId))
      );
    });
  }
}

/** An environment that no longer exists requires what nobody can give. */
const ENDED = { organizationId: '', requireHmac: true, inAppCredentials: [] };

function proofKeyRevoked(): DomainError {
  return new DomainError(
    'UNAUTHORIZED',
    'The API key that signed this session’s subscriberHash was revoked: start a new inbox session',
  );
}

function hashRequired(): DomainError {
  return new DomainError(
    'UNAUTHORIZED',
    'This environment now requires a subscriberHash: start a new inbox session with one',
  );
}
