import { Injectable } from '@nestjs/common';
import { delayUntil } from '#application';
import { record, type StepContext } from '../step-context.js';
import { outcome, type StepOutcome } from '../step-outcome.js';
import { readPath } from '../read-path.js';
import type { StepHandler } from './step-handler.js';

/** Delay steps: wait amount × unit, or until the ISO date at payload[delayPath]. */
export function startDelay(context: StepContext): StepOutcome {
  const { job, now } = context;
  const payload = context.payload ?? {};
  const wait = delayUntil(job.step.metadata, payload, now, (path) => readPath(payload, path));
  if ('error' in wait) {
    record(context, { status: 'Failed', source: 'Payload', detail: wait.error });
    return outcome.failed(wait.error);
  }
  record(context, { status: 'Pending', detail: `Step delayed until ${wait.runAt.toISOString()}` });
  return outcome.delayed(wait.runAt);
}

export function finishDelay(context: StepContext): StepOutcome {
  record(context, { status: 'Success', detail: 'Delay is finished' });
  return outcome.completed();
}

@Injectable()
export class DelayStep implements StepHandler {
  readonly type = 'delay';
  readonly claims = true;

  start(context: StepContext): StepOutcome {
    return startDelay(context);
  }

  resume(context: StepContext): StepOutcome {
    return finishDelay(context);
  }
}
