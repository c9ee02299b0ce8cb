import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DomainError } from '#common';
import type { StoredChannelSettings, SubscriberUpsertInput } from '#dal';
import { SubscriberChannelsResolver, SubscriberWrites } from '#application';
import type { AuthContext } from '../../auth/auth-context.js';
import { flattenValidationErrors } from '../../http/validation.js';
import { CreateSubscriberDto, type BulkCreateSubscribersResponseDto } from '../dto/subscriber.dto.js';

/**
 * POST /v1/subscribers/bulk: every item is validated on its own, so a bad item is reported as
 * failed and the others are still written, all in one upsert statement.
 */
@Injectable()
export class BulkUpsertSubscribersUseCase {
  constructor(
    private readonly channels: SubscriberChannelsResolver,
    private readonly writes: SubscriberWrites,
  ) {}

  async execute(auth: AuthContext, items: unknown[]): Promise<BulkCreateSubscribersResponseDto> {
    const failed: BulkCreateSubscribersResponseDto['failed'] = [];
    const checked = await Promise.all(items.map((item) => this.check(auth, item)));
    const inputs: SubscriberUpsertInput[] = [];
    for (const result of checked) {
      if ('message' in result) failed.push(result);
      else inputs.push(result);
    }
    const written = await this.writes.upsertDetailed(auth, inputs);
    return {
      created: written.filter((item) => item.created).map((item) => ({ subscriberId: item.row.subscriberId })),
      updated: written.filter((item) => !item.created).map((item) => ({ subscriberId: item.row.subscriberId })),
      failed,
    };
  }

  private async check(
    auth: AuthContext,
    item: unknown,
  ): Promise<SubscriberUpsertInput | { subscriberId: string | null; message: string }> {
    const rawId = (item as { subscriberId?: unknown } | null)?.subscriberId;
    const subscriberId = typeof rawId === 'string' ? rawId : null;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return { subscriberId, message: 'item must be an object' };
    const dto = plainToInstance(CreateSubscriberDto, item);
    const errors = await validate(dto, { whitelist: true, forbidUnknownValues: false });
    if (errors.length > 0) {
      const [path, detail] = Object.entries(flattenValidationErrors(errors))[0];
      return { subscriberId, message: `${path}: ${detail.messages[0]}` };
    }
    let channels: StoredChannelSettings[] | undefined;
    try {
      channels = dto.channels ? await this.channels.resolve(auth.environmentId, dto.channels) : undefined;
    } catch (error) {
      if (error instanceof DomainError) return { subscriberId, message: error.message };
      throw error;
    }
    return { ...dto, channels };
  }
}
