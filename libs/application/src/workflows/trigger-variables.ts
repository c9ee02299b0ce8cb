import type { StoredStep } from '#dal';

const TEMPLATE_FIELDS = ['subject', 'content', 'title', 'cta'] as const;
const LIQUID_TAG = /\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g;
const referencePattern = (root: string) =>
  new RegExp(`\\b${root}\\.([A-Za-z_$][\\w$-]*(?:\\.[A-Za-z_$][\\w$-]*)*)`, 'g');

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) value.forEach((item) => collectStrings(item, into));
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => collectStrings(item, into));
}

/**
 * The `<root>.*` paths the steps' templates (and their variants') use inside Liquid tags, in order of first use, e.g.
 * `{{ payload.user.name | upcase }}` gives `user.name`.
 */
export function templateVariables(steps: StoredStep[], root: 'payload' | 'subscriber'): { name: string }[] {
  const texts: string[] = [];
  for (const step of steps.flatMap((each) => [each, ...(each.variants ?? [])]))
    for (const field of TEMPLATE_FIELDS) collectStrings(step.template[field], texts);
  const names = new Set<string>();
  for (const text of texts) {
    for (const tag of text.match(LIQUID_TAG) ?? []) {
      for (const match of tag.matchAll(referencePattern(root))) names.add(match[1]);
    }
  }
  return [...names].map((name) => ({ name }));
}
