import { describe, expect, it } from '@jest/globals';
import { DiscordProvider } from './chat/discord.provider.js';
import {
  adapterTable,
  CHAT_PROVIDER_IDS,
  ProviderRegistry,
  PUSH_PROVIDER_IDS,
  SUBSCRIBER_PROVIDER_IDS,
} from './provider-registry.js';

describe('ProviderRegistry: one table of providers, checked by tsc', () => {
  it('every provider id a subscriber may name has an adapter of its channel', () => {
    const registry = new ProviderRegistry();
    for (const id of CHAT_PROVIDER_IDS) expect(registry.get(id)).toMatchObject({ providerId: id, channel: 'chat' });
    for (const id of PUSH_PROVIDER_IDS) expect(registry.get(id)).toMatchObject({ providerId: id, channel: 'push' });
    expect(SUBSCRIBER_PROVIDER_IDS).toEqual([...CHAT_PROVIDER_IDS, ...PUSH_PROVIDER_IDS]);
    expect(registry.get('nexmo')).toMatchObject({ providerId: 'nexmo', channel: 'sms' });
  });

  it('an adapter filed under another id or channel does not compile', () => {
    // @ts-expect-error discord's adapter is not slack's
    const renamed = adapterTable({ chat: { slack: () => new DiscordProvider() } });
    // @ts-expect-error discord is a chat provider
    const moved = adapterTable({ push: { discord: () => new DiscordProvider() } });
    expect([renamed, moved]).toHaveLength(2);
  });
});
