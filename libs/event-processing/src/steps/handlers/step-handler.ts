import type { StepType } from '#common';
import type { StepContext } from '../step-context.js';
import type { StepOutcome } from '../step-outcome.js';

/**
 * One step type's handler. What the engine checks before a step starts (its channel preference,
 * the delivery schedule) and what it loads (integrations) is the step type's STEP_REGISTRY entry in
 * libs/common. `start` runs the step once those checks pass; `resume` runs it again when its job
 * comes back after waiting (its own wait, a schedule hold or a provider retry's backoff).
 */
export interface StepHandler<Type extends StepType = StepType> {
  readonly type: Type;
  /**
   * The step acts outside the database (a provider call, a digest window), so its job is claimed
   * before it runs. Otherwise it runs unclaimed and its outcome is kept only if the row is still
   * claimable when written: one UPDATE per job instead of two.
   */
  readonly claims: boolean;
  start(context: StepContext): StepOutcome | Promise<StepOutcome>;
  resume(context: StepContext): StepOutcome | Promise<StepOutcome>;
}
