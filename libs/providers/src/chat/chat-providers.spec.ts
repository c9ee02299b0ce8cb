import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChatMessage } from '../provider.js';
import { failureOf } from '../testing/failure.test.js';
import { sendOptions, startReceiver, type Receiver } from '../testing/local-receiver.test.js';
import { DiscordProvider } from './discord.provider.js';
import { GetstreamProvider } from './getstream.provider.js';
import { GrafanaOnCallProvider } from './grafana-on-call.provider.js';
import { MattermostProvider } from './mattermost.provider.js';
import { MsTeamsProvider } from './msteams.provider.js';
import { RocketChatProvider } from './rocket-chat.provider.js';
import { RyverProvider } from './ryver.provider.js';
import { SlackProvider } from './slack.provider.js';
import { WhatsappBusinessProvider } from './whatsapp-business.provider.js';
import { ZulipProvider } from './zulip.provider.js';

describe('chat providers against a local receiver', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());
  const last = () => receiver.requests.at(-1)!;
  const chat = (path: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
    channel: 'chat',
    webhookUrl: `${receiver.url}${path}`,
    content: 'Build 42 failed',
    payload: { build: 42 },
    subscriberId: 'sub-1',
    transactionId: 'tx-1',
    ...extra,
  });

  it.each([
    ['slack', () => new SlackProvider()],
    ['service-slack', () => new SlackProvider('service-slack')],
  ])('%s: POST {text} to the subscriber webhook', async (providerId, make) => {
    receiver.replies.push({ body: 'ok', headers: { 'content-type': 'text/plain' } });
    const adapter = make();
    expect(adapter.providerId).toBe(providerId);
    await adapter.send(chat('/services/T1/B1/xyz'), {}, sendOptions);
    expect([last().method, last().path, last().json]).toEqual([
      'POST',
      '/services/T1/B1/xyz',
      { text: 'Build 42 failed' },
    ]);
  });

  it('discord: POST {content} with wait=true, id from the answer', async () => {
    receiver.replies.push({ body: { id: '99887766' } });
    const result = await new DiscordProvider().send(chat('/api/webhooks/1/tok'), {}, sendOptions);
    expect(result.id).toBe('99887766');
    expect([last().method, last().path, last().json]).toEqual([
      'POST',
      '/api/webhooks/1/tok?wait=true',
      { content: 'Build 42 failed' },
    ]);
  });

  it('msteams: plain content as {text}, card JSON as is', async () => {
    await new MsTeamsProvider().send(chat('/webhookb2/abc'), {}, sendOptions);
    expect([last().method, last().path, last().json]).toEqual(['POST', '/webhookb2/abc', { text: 'Build 42 failed' }]);
    const messageCard = {
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: 'Build',
      text: 'Build 42 failed',
    };
    await new MsTeamsProvider().send(chat('/webhookb2/abc', { content: JSON.stringify(messageCard) }), {}, sendOptions);
    expect(last().json).toEqual(messageCard);
  });

  it('mattermost: {text, channel} with the subscriber channel', async () => {
    await new MattermostProvider().send(
      chat('/hooks/mm1', { channelCredentials: { channel: 'town-square' } }),
      {},
      sendOptions,
    );
    expect([last().method, last().path, last().json]).toEqual([
      'POST',
      '/hooks/mm1',
      { text: 'Build 42 failed', channel: 'town-square' },
    ]);
  });

  it('ryver: {body}', async () => {
    await new RyverProvider().send(chat('/application/webhook/r1'), {}, sendOptions);
    expect([last().method, last().path, last().json]).toEqual([
      'POST',
      '/application/webhook/r1',
      { body: 'Build 42 failed' },
    ]);
  });

  it('zulip: {text} to the Slack-compatible webhook', async () => {
    await new ZulipProvider().send(chat('/api/v1/external/slack_incoming?api_key=k&stream=ops'), {}, sendOptions);
    expect([last().method, last().path, last().json]).toEqual([
      'POST',
      '/api/v1/external/slack_incoming?api_key=k&stream=ops',
      { text: 'Build 42 failed' },
    ]);
  });

  it('grafana-on-call: the formatted-webhook fields, subscriber values over integration values', async () => {
    const message = chat('/integrations/v1/formatted_webhook/g1/', {
      channelCredentials: { alertUid: 'alert-7', title: 'Build broken', state: 'alerting' },
    });
    const result = await new GrafanaOnCallProvider().send(
      message,
      { imageUrl: 'https://img.test/a.png', externalLink: 'https://ci.test/42', title: 'ignored' },
      sendOptions,
    );
    expect(result.id).toBe('alert-7');
    expect([last().method, last().path]).toEqual(['POST', '/integrations/v1/formatted_webhook/g1/']);
    expect(last().json).toEqual({
      alert_uid: 'alert-7',
      title: 'Build broken',
      image_url: 'https://img.test/a.png',
      state: 'alerting',
      link_to_upstream_details: 'https://ci.test/42',
      message: 'Build 42 failed',
    });
  });

  it('rocket-chat: POST /api/v1/chat.sendMessage with x-auth-token and x-user-id, {message:{rid,msg}}', async () => {
    receiver.replies.push({ body: { success: true, message: { _id: 'rc-1', ts: '2024-01-01T00:00:00.000Z' } } });
    const result = await new RocketChatProvider().send(
      chat('', { channelCredentials: { channel: 'ROOM1' } }),
      { token: 'rc-token', user: 'rc-user' },
      sendOptions,
    );
    expect(result).toEqual({ id: 'rc-1', date: '2024-01-01T00:00:00.000Z' });
    expect([last().method, last().path, last().headers['x-auth-token'], last().headers['x-user-id']]).toEqual([
      'POST',
      '/api/v1/chat.sendMessage',
      'rc-token',
      'rc-user',
    ]);
    expect(last().json).toEqual({ message: { rid: 'ROOM1', msg: 'Build 42 failed' } });
  });

  it('getstream: {text} with X-API-KEY', async () => {
    await new GetstreamProvider().send(chat('/stream/hook'), { apiKey: 'gs-key' }, sendOptions);
    expect([last().method, last().path, last().headers['x-api-key'], last().json]).toEqual([
      'POST',
      '/stream/hook',
      'gs-key',
      { text: 'Build 42 failed' },
    ]);
  });

  it('whatsapp-business: Graph API /{phoneNumberId}/messages, Bearer token, text to the subscriber phone', async () => {
    receiver.replies.push({ body: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.1' }] } });
    const credentials = { apiToken: 'wa-token', phoneNumberIdentification: '1055', baseUrl: receiver.url };
    const result = await new WhatsappBusinessProvider().send(
      chat('', { phone: '+15550001111' }),
      credentials,
      sendOptions,
    );
    expect(result.id).toBe('wamid.1');
    expect([last().method, last().path, last().headers.authorization]).toEqual([
      'POST',
      '/1055/messages',
      'Bearer wa-token',
    ]);
    expect(last().json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '15550001111',
      type: 'text',
      text: { preview_url: false, body: 'Build 42 failed' },
    });
    receiver.replies.push({ status: 400, body: { error: { message: '(#130429) Rate limit hit', code: 130429 } } });
    await expect(
      new WhatsappBusinessProvider().send(chat('', { phone: '+15550001111' }), credentials, sendOptions),
    ).rejects.toMatchObject({ retryable: true });
    await expect(new WhatsappBusinessProvider().send(chat(''), credentials, sendOptions)).rejects.toMatchObject({
      retryable: false,
      message: 'WhatsApp Business needs the subscriber phone number',
    });
  });

  it('a subscriber webhook on a private address is refused unless private targets are allowed', async () => {
    const refused = await failureOf(
      new SlackProvider().send(
        chat('/services/T1/B1/guarded-token'),
        {},
        { ...sendOptions, allowPrivateTargets: false },
      ),
    );
    expect(refused).toMatchObject({
      retryable: false,
      kind: 'target',
      message: expect.stringContaining('loopback, private, link-local or metadata address'),
    });
    expect(refused.message).not.toContain('guarded-token');
    expect(refused.message).not.toContain('127.0.0.1');
  });

  it('the webhook URL (it holds the token) never shows in an error', async () => {
    receiver.replies.push({ status: 404, body: `no hook at ${receiver.url}/services/T1/B1/secret-token-path` });
    const error = await failureOf(new SlackProvider().send(chat('/services/T1/B1/secret-token-path'), {}, sendOptions));
    expect(error).toMatchObject({ retryable: false, message: expect.stringMatching(/^Slack answered HTTP 404/) });
    expect(`${error.message} ${error.raw}`).not.toContain('secret-token-path');
  });
});
