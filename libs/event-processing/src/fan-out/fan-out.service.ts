import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { LOGGER } from '#common';
import { SubscriberChannelsResolver, type ChannelSettingsInput } from '#application';
import {
  DATABASE,
  JobRepository,
  NotificationRepository,
  SubscriberRepository,
  TenantRepository,
  TopicRepository,
  TriggerEventRepository,
  type Database,
  type StoredChannelSettings,
  type SubscriberUpsertInput,
  type TriggerEventRow,
  type WorkflowRow,
} from '#dal';
import { WorkflowCache } from '../cache/workflow-cache.js';
import { workerTransaction } from '../database/worker-transaction.js';
import { JobQueue } from '../queue/job-queue.service.js';
import { stepEntries } from '../queue/step-entries.js';
import { parseActor, parseRecipients, type SubscriberRecipient } from '../trigger/recipients.js';
import { buildJobs, buildNotifications, type Recipient } from './build-notification-jobs.js';
import { ChunkPipeline } from './chunk-pipeline.js';

/** Recipients per transaction (notifications + jobs) and per addBulk. */
export const FAN_OUT_CHUNK = 500;
/** Chunk transactions of one fan-out in flight at once. */
const CHUNKS_IN_FLIGHT = 2;
/** Rolls a chunk's transaction back when its event was canceled meanwhile. */
class EventCanceled extends Error {}

const UPSERT_FIELDS = ['firstName', 'lastName', 'email', 'phone', 'avatar', 'locale', 'timezone', 'data'] as const;

/**
 * Expands one trigger event into notifications and step jobs. Safe to run again: notifications are
 * unique per (event, subscriber) and jobs per (notification, step), so a retried chunk adds nothing.
 */
@Injectable()
export class FanOutService {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    private readonly events: TriggerEventRepository,
    private readonly workflows: WorkflowCache,
    private readonly subscribers: SubscriberRepository,
    private readonly topics: TopicRepository,
    private readonly tenants: TenantRepository,
    private readonly notifications: NotificationRepository,
    private readonly jobs: JobRepository,
    private readonly channels: SubscriberChannelsResolver,
    private readonly queue: JobQueue,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async run(environmentId: string, eventId: string): Promise<void> {
    // A canceled event stays canceled; a finished one is not fanned out twice.
    const event = await workerTransaction(this.db, (tx) => this.events.startProcessing(environmentId, eventId, tx));
    if (!event) return;
    const workflow = await this.workflows.byId(environmentId, event.workflowId);
    if (!workflow) {
      await this.events.setStatus(environmentId, eventId, 'failed', 'The workflow was deleted before the event was processed');
      return;
    }
    const request = event.request;
    const parsed = parseRecipients(request.to);
    const actor = parseActor(request.actor);
    const rows = await this.upsertSubscribers(event, actor ? [...parsed.subscribers, actor] : parsed.subscribers);
    await this.updateTenant(environmentId, request.tenant);

    const seen = new Set<string>();
    const pipeline = new ChunkPipeline<Recipient[]>((chunk) => this.writeChunk(event, workflow, chunk, false), CHUNKS_IN_FLIGHT);
    let buffer: Recipient[] = [];
    const push = async (recipient: Recipient) => {
      if (seen.has(recipient.subscriberId)) return;
      seen.add(recipient.subscriberId);
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
      if (row && !pipeline.stopped) await push({ subscriberId: row, externalSubscriberId: recipient.subscriberId, to: recipient.fields ?? { subscriberId: recipient.subscriberId } });
    }
    for (const topicRef of parsed.topics) {
      if (pipeline.stopped) break;
      const topic = await this.topics.findByKey(environmentId, topicRef.topicKey);
      if (!topic) {
        // Novu only warns about an unknown topic; the other recipients still receive.
        this.logger.warn({ transactionId: event.transactionId, eventId, topicKey: topicRef.topicKey }, 'trigger names an unknown topic');
        continue;
      }
      const excluded = new Set(actor ? [...topicRef.exclude, actor.subscriberId] : topicRef.exclude);
      const readPage = (after?: string) => {
        const page = this.topics.listFanOutPage(environmentId, topic.id, after, FAN_OUT_CHUNK);
        page.catch(() => undefined); // awaited below, unless the fan-out stops first
        return page;
      };
      for (let next = readPage(); !pipeline.stopped; ) {
        const page = await next;
        // The keyset moves over the whole page, deleted members included; the next page is read while this one is written.
        const more = page.length === FAN_OUT_CHUNK;
        if (more) next = readPage(page[page.length - 1].subscriberId);
        for (const member of page) {
          // Soft-deleted subscribers keep their topic memberships; they receive nothing.
          if (excluded.has(member.externalSubscriberId) || !member.live || pipeline.stopped) continue;
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
    await pipeline.drain();
    // The last chunk (maybe empty) marks the event done, after every other chunk committed.
    const live = !pipeline.stopped && (await this.writeChunk(event, workflow, buffer, true));
    if (this.logger.isLevelEnabled('info')) {
      this.logger.info({ transactionId: event.transactionId, eventId, recipients: seen.size, canceled: !live }, 'event fanned out');
    }
  }

  /**
   * One transaction per chunk; the first step job of each new notification is enqueued after commit.
   * The chunk touches its event last (the fan-out's heartbeat for the recovery sweeper; last, so
   * chunks in flight hold the event row only while committing) and is rolled back when the event was
   * canceled meanwhile; the last chunk marks it done in the same transaction (a queue entry lost after
   * that commit leaves a queued job to the recovery sweeper). Returns whether the fan-out may go on.
   */
  private async writeChunk(event: TriggerEventRow, workflow: WorkflowRow, chunk: Recipient[], last: boolean): Promise<boolean> {
    const queued = await workerTransaction(this.db, async (tx) => {
      const notifications = buildNotifications(event, workflow, chunk);
      const inserted = await this.notifications.insertBatch(notifications.rows, notifications.shared, tx);
      const queued: { id: string; environmentId: string }[] = [];
      for (const step of buildJobs(event, workflow, inserted)) {
        for (const job of await this.jobs.insertBatch(step.rows, step.shared, tx)) if (job.status === 'queued') queued.push(job);
      }
      if (!(await this.events.transition(event.environmentId, event.id, ['processing'], last ? 'done' : 'processing', tx))) throw new EventCanceled();
      return queued;
    }).catch((error: unknown) => {
      if (error instanceof EventCanceled) return undefined;
      throw error;
    });
    if (!queued) return false;
    await this.queue.addBulk('run-step', stepEntries(queued));
    return true;
  }

  /**
   * One upsert for the actor and every subscriber of `to`; returns external → internal id of the live
   * ones. A bare subscriberId of an existing subscriber changes nothing, so it is only read: the
   * upsert (a row write even when nothing changed) is left to new subscribers and sent fields.
   */
  private async upsertSubscribers(event: TriggerEventRow, recipients: SubscriberRecipient[]): Promise<Map<string, string>> {
    const bare = recipients.filter((recipient) => !recipient.fields).map((recipient) => recipient.subscriberId);
    const existing = bare.length > 0 ? await this.subscribers.findBySubscriberIds(event.environmentId, bare) : [];
    const ids = new Map(existing.map((row) => [row.subscriberId, row.id]));
    const toWrite = recipients.filter((recipient) => recipient.fields || !ids.has(recipient.subscriberId));
    if (toWrite.length === 0) return ids;
    const inputs = await Promise.all(toWrite.map((recipient) => this.toUpsertInput(event.environmentId, recipient)));
    const scope = { environmentId: event.environmentId, organizationId: event.organizationId };
    const rows = await this.subscribers.upsertMany(scope, inputs, { restoreDeleted: false });
    for (const row of rows) ids.set(row.subscriberId, row.id);
    return ids;
  }

  private async toUpsertInput(environmentId: string, recipient: SubscriberRecipient): Promise<SubscriberUpsertInput> {
    const input: SubscriberUpsertInput = { subscriberId: recipient.subscriberId };
    const fields = recipient.fields;
    if (!fields) return input;
    for (const field of UPSERT_FIELDS) {
      if (fields[field] !== undefined) (input as unknown as Record<string, unknown>)[field] = fields[field];
    }
    if (Array.isArray(fields.channels)) input.channels = await this.resolveChannels(environmentId, fields.channels as ChannelSettingsInput[]);
    return input;
  }

  /** A channel entry whose integration is missing is dropped, not fatal: the other recipients still receive. */
  private async resolveChannels(environmentId: string, entries: ChannelSettingsInput[]): Promise<StoredChannelSettings[]> {
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
