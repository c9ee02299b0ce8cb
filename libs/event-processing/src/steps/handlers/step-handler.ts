import type { StepType } from '#common';
import type { StepContext } from '../step-context.js';
import type { StepOutcome } from '../step-outcome.js';

/** What the runner loads and checks for a step before it starts, beyond its filters (every step has those). */
export interface StepNeeds {
  /** The subscriber's channel preference for the workflow may turn the step off. */
  preferences: boolean;
  /** The step waits for the subscriber's delivery schedule (unless the workflow is critical). */
  schedule: boolean;
  /** The step sends through the environment's active integrations of its channel (StepContext.integrations). */
  integrations: boolean;
}

/**
 * One step type. `start` runs the step once its checks pass; `resume` runs it again when its job
 * comes back after waiting (its own wait, a schedule hold or a provider retry's backoff).
 */
export interface StepHandler {
  readonly type: StepType;
  readonly needs: StepNeeds;
  /**
   * The step acts outside the database (a provider call, a digest window), so its job is claimed
   * before it runs. Otherwise it runs unclaimed and its outcome is kept only if the row is still
   * claimable when written: one UPDATE per job instead of two.
   */
  readonly claims: boolean;
  /** The step's own start ends in a wait (delay, digest window) that `resume` ends. */
  readonly waits: boolean;
  start(context: StepContext): StepOutcome | Promise<StepOutcome>;
  resume(context: StepContext): StepOutcome | Promise<StepOutcome>;
}
