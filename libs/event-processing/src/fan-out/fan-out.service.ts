import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { GroupCommit, LOGGER } from '#common';
import {
  isBroadcast,
  parseActor,
  parseRecipients,
  SubscriberChannelsResolver,
  topicMemberFilter,
  type ChannelSettingsInput,
  type SubscriberRecipient,
  WorkflowCache,
  SubscriberWrites,
} from '#application';
import {
  SubscriberRepository,
  TenantRepository,
  TopicRepository,
  TriggerEventRepository,
  type StoredChannelSettings,
  type SubscriberUpsertInput,
  type TriggerEventRow,
} from '#dal';
import { WORKER_GROUP_COMMIT } from '../database/worker-group-commit.js';
import type { Recipient } from './build-notification-jobs.js';
import { ChunkPipeline } from './chunk-pipeline.js';
import { ChunkWriter } from './chunk-writer.js';

/** Recipients per transaction (notifications + jobs) and per addBulk. */
const FAN_OUT_CHUNK = 500;
/** Chunk transactions of one fan-out in flight at once. */
const CHUNKS_IN_FLIGHT = 2;

/** Queue entries (each up to a hundred events) whose starting reads are shared at most. */
const STARTS_PER_READ = 10;

const UPSERT_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'] as const;

interface SubscriberUpsert {
  organizationId: string;
  input: SubscriberUpsertInput;
}

/** What a queue entry's fan-out starts from: its events still to fan out, and the subscribers they name by id alone. */
interface FanOutStart {
  events: TriggerEventRow[];
  /** Internal ids of the live subscribers named by subscriberId alone, by subscriberId. */
  known: ReadonlyMap<string, string>;
}

/**
 * Expands one trigger event into notifications and step jobs. Safe to run again: notifications are
 * unique per (event, subscriber) and jobs per (notification, step), so a retried chunk adds nothing.
 */
@Injectable()
export class FanOutService {
  /**
   * Subscriber writes of concurrent fan-outs share one upsert: a burst of triggers that each name a
   * new subscriber (or send its fields) costs one statement per batch, not one per trigger.
   */
  private readonly upserts = new GroupCommit<SubscriberUpsert, string | undefined>(
    (environmentId, items) => this.upsertBatch(environmentId, items),
    WORKER_GROUP_COMMIT,
  );

  /**
   * The starting reads of concurrent queue entries of an environment (their events, the subscribers
   * they name) are shared: under load the api's batches arrive as many small entries, each of which
   * paid two statements, PostgreSQL planning both again for their values.
   */
  private readonly starts = new GroupCommit<string[], FanOutStart>(
    (environmentId, entries) => this.readStarts(environmentId, entries),
    { maxBatch: STARTS_PER_READ },
  );

  constructor(
    private readonly events: TriggerEventRepository,
    private readonly workflows: WorkflowCache,
    private readonly subscribers: SubscriberRepository,
    private readonly writes: SubscriberWrites,
    private readonly topics: TopicRepository,
    private readonly tenants: TenantRepository,
    private readonly chunks: ChunkWriter,
    private readonly channels: SubscriberChannelsResolver,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * Fans out the events of one queue entry: they and their recipients named by subscriberId alone are
   * read together with those of the environment's other entries starting meanwhile (`starts`); then
   * each event runs on its own, and one that fails does not stop the others. Returns the events that failed.
   */
  async runMany(environmentId: string, eventIds: string[]): Promise<{ eventId: string; error: unknown }[]> {
    const { events, known } = await this.starts.submit(environmentId, eventIds);
    const results = await Promise.allSettled(events.map((event) => this.run(event, known)));
    return events.flatMap((event, index) => {
      const result = results[index];
      return result.status === 'rejected' ? [{ eventId: event.id, error: result.reason as unknown }] : [];
    });
  }

  /** One read of the events of several entries and of the subscribers they name; each entry gets its own events. */
  private async readStarts(environmentId: string, entries: string[][]): Promise<FanOutStart[]> {
    // A canceled event stays canceled; a finished one is not fanned out twice.
    const events = await this.events.findToFanOut(environmentId, [...new Set(entries.flat())]);
    const known = new Map(
      (await this.subscribers.findBySubscriberIds(environmentId, [...new Set(events.flatMap(bareRecipients))])).map(
        (row) => [row.subscriberId, row.id],
      ),
    );
    const byId = new Map(events.map((event) => [event.id, event]));
    return entries.map((eventIds) => ({ events: eventIds.flatMap((id) => byId.get(id) ?? []), known }));
  }

  /** `known`: internal ids of the live subscribers the batch's events name by subscriberId alone. */
  private async run(event: TriggerEventRow, known: ReadonlyMap<string, string>): Promise<void> {
    const { environmentId, id: eventId } = event;
    const workflow = await this.workflows.byId(environmentId, event.workflowId);
    if (!workflow) {
      await this.events.setStatus(
        environmentId,
        eventId,
        'failed',
        'The workflow was deleted before the event was processed',
      );
      return;
    }
    const request = event.request;
    const parsed = parseRecipients(request.to);
    const actor = parseActor(request.actor);
    const rows = await this.upsertSubscribers(
      event,
      actor ? [...parsed.subscribers, actor] : parsed.subscribers,
      known,
    );
    await this.updateTenant(environmentId, request.tenant);

    const broadcast = isBroadcast(request);
    // A subscriber named twice receives once. One topic (or a broadcast) alone needs no check (its
    // members are unique), and a 100,000-member set held for the whole fan-out is memory the worker can spare.
    const sources = parsed.topics.length + (broadcast ? 1 : 0);
    const seen = parsed.subscribers.length === 0 && sources === 1 ? undefined : new Set<string>();
    let recipients = 0;
    const pipeline = new ChunkPipeline<Recipient[]>(
      (recipients) => this.chunks.write({ event, workflow, recipients }),
      CHUNKS_IN_FLIGHT,
    );
    let buffer: Recipient[] = [];
    const push = async (recipient: Recipient) => {
      if (seen?.has(recipient.subscriberId)) return;
      seen?.add(recipient.subscriberId);
      recipients++;
      buffer.push(recipient);
      if (buffer.length >= FAN_OUT_CHUNK) {
        const chunk = buffer;
        buffer = [];
        await pipeline.push(chunk);
      }
    };
    for (const recipient of parsed.subscribers) {
      const row = rows.get(recipient.subscriberId);
      // No row: a deleted subscriber, which a trigger does not bring back.
      if (row && !pipeline.stopped)
        await push({
          subscriberId: row,
          externalSubscriberId: recipient.subscriberId,
          to: recipient.fields ?? { subscriberId: recipient.subscriberId },
        });
    }
    let reaches: ReturnType<typeof topicMemberFilter> | undefined;
    for (const topicRef of parsed.topics) {
      if (pipeline.stopped) break;
      const topic = await this.topics.findByKey(environmentId, topicRef.topicKey);
      if (!topic) {
        // Novu only warns about an unknown topic; the other recipients still receive.
        this.logger.warn(
          { transactionId: event.transactionId, eventId, topicKey: topicRef.topicKey },
          'trigger names an unknown topic',
        );
        continue;
      }
      const excluded = new Set(actor ? [...topicRef.exclude, actor.subscriberId] : topicRef.exclude);
      reaches ??= topicMemberFilter(workflow, request);
      const readPage = (after?: string) => {
        const page = this.topics.listFanOutPage(environmentId, topic.id, after, FAN_OUT_CHUNK);
        page.catch(() => undefined); // awaited below, unless the fan-out stops first
        return page;
      };
      for (let next = readPage(); !pipeline.stopped;) {
        const page = await next;
        // The keyset moves over the whole page, deleted members included; the next page is read while this one is written.
        const more = page.length === FAN_OUT_CHUNK;
        if (more) next = readPage(page[page.length - 1].subscriberId);
        for (const member of page) {
          // A deleted subscriber's memberships go with it; one deleted while this page was read receives nothing.
          if (excluded.has(member.externalSubscriberId) || !member.live || pipeline.stopped) continue;
          // Members without preferences (most) skip the check altogether.
          if (member.preferences !== null && !reaches(member)) continue;
          await push({
            subscriberId: member.subscriberId,
            externalSubscriberId: member.externalSubscriberId,
            to: { subscriberId: member.externalSubscriberId },
            topic: { _topicId: topic.id, topicKey: topic.key },
          });
        }
        if (!more) break;
      }
    }
    if (broadcast) await this.pushEnvironment(environmentId, pipeline, push);
    await pipeline.drain();
    const live = !pipeline.stopped && (await this.chunks.writeLast({ event, workflow, recipients: buffer }));
    if (this.logger.isLevelEnabled('info')) {
      this.logger.info(
        { transactionId: event.transactionId, eventId, recipients, canceled: !live },
        'event fanned out',
      );
    }
  }

  /** A broadcast's recipients: every live subscriber of the environment, a page read ahead while one is written. */
  private async pushEnvironment(
    environmentId: string,
    pipeline: ChunkPipeline<Recipient[]>,
    push: (recipient: Recipient) => Promise<void>,
  ): Promise<void> {
    const readPage = (after?: string) => {
      const page = this.subscribers.listFanOutPage(environmentId, after, FAN_OUT_CHUNK);
      page.catch(() => undefined); // awaited below, unless the fan-out stops first
      return page;
    };
    for (let next = readPage(); !pipeline.stopped;) {
      const page = await next;
      const more = page.length === FAN_OUT_CHUNK;
      if (more) next = readPage(page[page.length - 1].subscriberId);
      for (const row of page) {
        if (pipeline.stopped) return;
        await push({
          subscriberId: row.id,
          externalSubscriberId: row.subscriberId,
          to: { subscriberId: row.subscriberId },
        });
      }
      if (!more) return;
    }
  }

  /**
   * Writes the actor and every subscriber of `to` (through the shared upsert); returns external →
   * internal id of the live ones. A bare subscriberId of an existing subscriber changes nothing, so it is only read: the
   * upsert (a row write even when nothing changed) is left to new subscribers and sent fields.
   */
  private async upsertSubscribers(
    event: TriggerEventRow,
    recipients: SubscriberRecipient[],
    known: ReadonlyMap<string, string>,
  ): Promise<Map<string, string>> {
    const ids = new Map(
      recipients.flatMap((recipient) => {
        const id = recipient.fields ? undefined : known.get(recipient.subscriberId);
        return id ? [[recipient.subscriberId, id] as const] : [];
      }),
    );
    const toWrite = recipients.filter((recipient) => recipient.fields || !ids.has(recipient.subscriberId));
    if (toWrite.length === 0) return ids;
    const inputs = await Promise.all(toWrite.map((recipient) => this.toUpsertInput(event.environmentId, recipient)));
    const written = await Promise.all(
      inputs.map((input) => this.upserts.submit(event.environmentId, { organizationId: event.organizationId, input })),
    );
    inputs.forEach((input, index) => {
      const id = written[index];
      if (id) ids.set(input.subscriberId, id);
    });
    return ids;
  }

  /** One upsert for the batch (a subscriber named twice is written once, its fields merged); no id for a deleted one. */
  private async upsertBatch(environmentId: string, items: SubscriberUpsert[]): Promise<(string | undefined)[]> {
    const scope = { environmentId, organizationId: items[0].organizationId };
    const rows = await this.writes.upsert(
      scope,
      items.map((item) => item.input),
      { restoreDeleted: false },
    );
    const ids = new Map(rows.map((row) => [row.subscriberId, row.id]));
    return items.map((item) => ids.get(item.input.subscriberId));
  }

  private async toUpsertInput(environmentId: string, recipient: SubscriberRecipient): Promise<SubscriberUpsertInput> {
    const input: SubscriberUpsertInput = { subscriberId: recipient.subscriberId };
    const fields = recipient.fields;
    if (!fields) return input;
    for (const field of UPSERT_FIELDS) {
      if (fields[field] !== undefined) (input as unknown as Record<string, unknown>)[field] = fields[field];
    }
    if (Array.isArray(fields.channels))
      input.channels = await this.resolveChannels(environmentId, fields.channels as ChannelSettingsInput[]);
    return input;
  }

  /** A channel entry whose integration is missing is dropped, not fatal: the other recipients still receive. */
  private async resolveChannels(
    environmentId: string,
    entries: ChannelSettingsInput[],
  ): Promise<StoredChannelSettings[]> {
    const resolved = await Promise.all(
      entries.map((entry) =>
        this.channels.resolve(environmentId, [entry]).then(
          ([settings]) => settings,
          (error: unknown) => {
            this.logger.warn({ err: error, providerId: entry?.providerId }, 'trigger channel entry dropped');
            return undefined;
          },
        ),
      ),
    );
    return resolved.filter((entry): entry is StoredChannelSettings => entry !== undefined);
  }

  private async updateTenant(environmentId: string, tenant: unknown): Promise<void> {
    if (typeof tenant !== 'object' || tenant === null) return;
    const { identifier, name, data } = tenant as { identifier: string; name?: string; data?: Record<string, unknown> };
    const changes = { ...(name !== undefined ? { name } : {}), ...(data !== undefined ? { data } : {}) };
    if (Object.keys(changes).length > 0) await this.tenants.update(environmentId, identifier, changes);
  }
}

/** The subscriberIds an event names without fields (the actor included): existing ones are only read. */
function bareRecipients(event: TriggerEventRow): string[] {
  const parsed = parseRecipients(event.request.to);
  const actor = parseActor(event.request.actor);
  const recipients = actor ? [...parsed.subscribers, actor] : parsed.subscribers;
  return recipients.filter((recipient) => !recipient.fields).map((recipient) => recipient.subscriberId);
}
