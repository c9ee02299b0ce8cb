import { Injectable } from '@nestjs/common';
import { Clock } from '#common';
import { SubscriberPresenceRepository, type SubscriberRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import { notFound } from '../subscribers.service.js';

/** Operation 2 (BEHAVIOR §2): either direction records the moment as lastOnlineAt. */
@Injectable()
export class UpdateOnlineStatusUseCase {
  constructor(
    private readonly presence: SubscriberPresenceRepository,
    private readonly clock: Clock,
  ) {}

  async execute(auth: AuthContext, subscriberId: string, isOnline: boolean): Promise<SubscriberRow> {
    const row = await this.presence.setOnline(auth.environmentId, subscriberId, isOnline, this.clock.now());
    if (!row) throw notFound(subscriberId);
    return row;
  }
}
