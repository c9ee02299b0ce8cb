import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import {
  contextKeysOf,
  contextEntriesOf,
  contextReferencesOf,
  parseSchedule,
  SubscriberNotificationsService,
  SubscriberWrites,
} from '#application';
import {
  ContextRepository,
  EnvironmentRepository,
  SubscriberRepository,
  type SubscriberRow,
  type SubscriberScope,
} from '#dal';
import { clientBudgetId } from '../../http/client-address.js';
import type { InboxSessionDto, SessionSubscriberDto, StartInboxSessionDto } from '../dto/inbox-session.dto.js';
import { InboxRateLimiter } from '../inbox-rate-limiter.js';
import { SessionTokens } from '../session-token.js';
import { InboxScheduleDefaults } from './inbox-schedule-defaults.js';
import { SubscriberHashVerifier } from './subscriber-hash.verifier.js';

/** Matches the 90-day cap of a snooze. */
const MAX_SNOOZE_DURATION_HOURS = 90 * 24;

/**
 * POST /v1/inbox/session: the environment by its public identifier, the HMAC check, the subscriber
 * created or updated with the fields the browser sent, then a token and the unread counts.
 */
@Injectable()
export class StartInboxSessionUseCase {
  constructor(
    private readonly environments: EnvironmentRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly writes: SubscriberWrites,
    private readonly contexts: ContextRepository,
    private readonly hashes: SubscriberHashVerifier,
    private readonly schedules: InboxScheduleDefaults,
    private readonly notifications: SubscriberNotificationsService,
    private readonly tokens: SessionTokens,
    private readonly limiter: InboxRateLimiter,
  ) {}

  /** `clientAddress`: the caller's address (request.ip), whose failed hash checks are limited. */
  async execute(body: StartInboxSessionDto, clientAddress: string): Promise<InboxSessionDto> {
    const subscriberId = body.subscriber?.subscriberId ?? body.subscriberId;
    if (!subscriberId) throw DomainError.validation('subscriber', 'subscriber (or subscriberId) is required');
    const environment = await this.environments.findEnvironmentByIdentifier(body.applicationIdentifier);
    if (!environment)
      throw new DomainError(
        'BAD_REQUEST',
        `No environment has the applicationIdentifier ${body.applicationIdentifier}`,
      );
    // Wrong hashes are their client's problem; the environment's bucket counts only sessions that may start.
    const { proofKeyId: signerKeyId, contextProven } = await this.limiter.onFailureBudget(
      'sessionFailure',
      clientBudgetId(clientAddress),
      () => this.hashes.verify(environment, { ...body, subscriberId }),
    );
    await this.limiter.take('session', environment.id);
    const proven = signerKeyId !== undefined;
    // Refused before anything is written.
    const defaultSchedule = parseSchedule(body.defaultSchedule, 'defaultSchedule');
    const scope = { environmentId: environment.id, organizationId: environment.organizationId };
    const given = body.subscriber ?? { subscriberId };
    const subscriber = proven ? await this.provenSubscriber(scope, given) : await this.claimedSubscriber(scope, given);
    if (defaultSchedule) await this.schedules.apply(scope, subscriber.id, defaultSchedule);
    const contextKeys = await this.sessionContext(scope, body.context);
    const unreadCount = await this.notifications.unreadCount(environment.id, subscriberId, contextKeys);
    return {
      token: this.tokens.issue({
        ...scope,
        subscriberRowId: subscriber.id,
        subscriberId,
        generation: subscriber.generation,
        hashProven: proven && contextProven,
        proofKeyId: proven && contextProven ? signerKeyId : undefined,
        contextKeys,
      }),
      totalUnreadCount: unreadCount.total,
      unreadCount,
      removeNovuBranding: true,
      isDevelopmentMode: environment.name === 'Development',
      maxSnoozeDurationHours: MAX_SNOOZE_DURATION_HOURS,
      applicationIdentifier: environment.identifier,
      contextKeys,
    };
  }

  /**
   * The session's context keys. Its contexts are created when missing, as a trigger creates them,
   * but never with data from the browser and never changed: the tenant's server owns their data.
   */
  private async sessionContext(scope: SubscriberScope, context: Record<string, unknown> | undefined) {
    const references = contextReferencesOf(context).map(({ type, identifier }) => ({ type, identifier }));
    if (references.length > 0) await this.contexts.resolve(scope, references);
    return contextKeysOf(contextEntriesOf(context));
  }

  /**
   * A subscriberId proven by a hash speaks as the tenant's server would: the subscriber is created,
   * updated or restored with the fields given (the DTO holds the subscribers API's rules for them, no
   * channel credentials). With only a subscriberId there is nothing to change: no write, no new version.
   */
  private async provenSubscriber(scope: SubscriberScope, given: SessionSubscriberDto): Promise<SubscriberRow> {
    const existing =
      Object.keys(given).length === 1
        ? await this.subscribers.findBySubscriberId(scope.environmentId, given.subscriberId)
        : undefined;
    return existing ?? (await this.writes.upsert(scope, [given]))[0];
  }

  /**
   * Without a hash anyone may claim any subscriberId. Such a session may create a subscriber but never
   * change one (else a stranger could point someone's email or phone at their own), and never restore
   * a deleted one: that would hand the stranger the deleted person's row, fields and messages.
   */
  private async claimedSubscriber(scope: SubscriberScope, given: SessionSubscriberDto): Promise<SubscriberRow> {
    const created = await this.writes.insertIfAbsent(scope, given);
    if (created) return created;
    const live = await this.subscribers.findBySubscriberId(scope.environmentId, given.subscriberId);
    if (live) return live;
    throw new DomainError(
      'FORBIDDEN',
      `Subscriber ${given.subscriberId} was deleted: only the API or a session proven with a subscriberHash can restore it`,
    );
  }
}
