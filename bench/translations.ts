import { createWorkflow, SUSTAINED_CONTENT } from './database.js';
import type { Deployment } from './deployment.js';
import type { BenchOptions } from './options.js';
import { sustainedTriggers, type SustainedRun } from './sustained.js';

export interface TranslationsResult {
  /** The sustained end-to-end runs (existing subscribers) with the plain workflow, before and after the translated one. */
  without: SustainedRun;
  withoutAgain: SustainedRun;
  withTranslations: SustainedRun;
}

/**
 * What translations cost end to end: the sustained run with the plain in_app workflow, then with one
 * whose step says `{{t.greeting}}` (translations on, en_US and de_DE stored), then the plain one again,
 * same deployment; the plain runs on both sides cancel the drift of a deployment whose tables grow.
 * The translated value is the plain workflow's text, so every run renders and stores the same message;
 * the difference is the lookup (the per-environment cache, no query per delivery).
 */
export async function translations(deployment: Deployment, options: BenchOptions): Promise<TranslationsResult> {
  const without = await sustainedTriggers(deployment, options, 'existing', '-untranslated');
  const withTranslations = await sustainedTriggers(deployment, options, 'existing', '-translated', async (name) => {
    const workflow = await createWorkflow(deployment.pool, deployment.scope, deployment.client, name, true);
    for (const [locale, greeting] of [
      ['en_US', SUSTAINED_CONTENT],
      ['de_DE', 'Hallo {{subscriber.firstName}}, Bestellung {{payload.orderId}} ist unterwegs'],
    ]) {
      const res = await deployment.client.request('POST', '/v2/translations', {
        resourceType: 'workflow',
        resourceId: name,
        locale,
        content: { greeting },
      });
      if (res.status !== 200) throw new Error(`POST /v2/translations: ${res.status} ${await res.text()}`);
    }
    return workflow;
  });
  const withoutAgain = await sustainedTriggers(deployment, options, 'existing', '-untranslated-again');
  return { without, withoutAgain, withTranslations };
}
