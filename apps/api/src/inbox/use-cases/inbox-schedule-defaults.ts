import { Injectable } from '@nestjs/common';
import { PreferenceWriter, type Schedule } from '#application';
import { PreferenceRepository, type PreferenceScope } from '#dal';

/** A session's `defaultSchedule`: stored only while the subscriber has no schedule. */
@Injectable()
export class InboxScheduleDefaults {
  constructor(
    private readonly preferences: PreferenceRepository,
    private readonly writer: PreferenceWriter,
  ) {}

  async apply(scope: PreferenceScope, subscriberRowId: string, schedule: Schedule): Promise<void> {
    const global = await this.preferences.findGlobal(scope.environmentId, subscriberRowId);
    if (global?.schedule) return;
    await this.writer.updateGlobal(scope, subscriberRowId, {}, schedule);
  }
}
