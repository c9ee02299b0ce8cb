import { Injectable } from '@nestjs/common';
import { PreferenceRepository, type SubscriberRow } from '#dal';
import type { TenantScope } from '../../auth/auth-context.js';
import { UpdateSubscriberPreferencesUseCase } from '../../preferences/use-cases/update-subscriber-preferences.use-case.js';

/** A session's `defaultSchedule`: stored (validated like any schedule) only while the subscriber has none. */
@Injectable()
export class InboxScheduleDefaults {
  constructor(
    private readonly preferences: PreferenceRepository,
    private readonly updatePreferences: UpdateSubscriberPreferencesUseCase,
  ) {}

  async apply(scope: TenantScope, subscriber: SubscriberRow, schedule: unknown): Promise<void> {
    if (schedule === null) return;
    const rows = await this.preferences.findForSubscriber(scope.environmentId, subscriber.id);
    if (rows.some((row) => row.workflowId === null && row.schedule)) return;
    await this.updatePreferences.execute(scope, subscriber.subscriberId, { schedule });
  }
}
