import { isClientSafeUrl } from '#common';

/** A url of an in-app cta, by its path inside the cta (`data.url`, `action.buttons[0].url`). */
export interface CtaUrl {
  path: string;
  url: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The objects of a cta whose `url` a client opens: the cta's redirect (`data`) and each action
 * button, whose url Novu stores flat (`url`) or as `redirect.url`; the inbox reads all three.
 */
function urlHolders(cta: unknown): { path: string; holder: Record<string, unknown> }[] {
  if (!isObject(cta)) return [];
  const holders = isObject(cta.data) ? [{ path: 'data', holder: cta.data }] : [];
  const buttons = isObject(cta.action) && Array.isArray(cta.action.buttons) ? (cta.action.buttons as unknown[]) : [];
  buttons.forEach((button, index) => {
    if (!isObject(button)) return;
    holders.push({ path: `action.buttons[${index}]`, holder: button });
    if (isObject(button.redirect)) holders.push({ path: `action.buttons[${index}].redirect`, holder: button.redirect });
  });
  return holders.filter(({ holder }) => typeof holder.url === 'string');
}

/** Every url of a cta that a client opens. */
export function ctaUrls(cta: unknown): CtaUrl[] {
  return urlHolders(cta).map(({ path, holder }) => ({ path: `${path}.url`, url: holder.url as string }));
}

/**
 * The cta without the urls a client must not open (isClientSafeUrl), and those urls; the cta
 * itself when it has none, so the common case copies nothing.
 */
export function withoutUnsafeUrls<T>(cta: T): { cta: T; removed: CtaUrl[] } {
  if (ctaUrls(cta).every(({ url }) => isClientSafeUrl(url))) return { cta, removed: [] };
  const copy = structuredClone(cta);
  const removed: CtaUrl[] = [];
  for (const { path, holder } of urlHolders(copy)) {
    const url = holder.url as string;
    if (isClientSafeUrl(url)) continue;
    removed.push({ path: `${path}.url`, url });
    delete holder.url;
  }
  return { cta: copy, removed };
}
