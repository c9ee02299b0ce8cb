import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ProviderError } from '../provider.js';

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [['::1', 128], ['::', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return mapped ? PRIVATE.check(mapped[1], 'ipv4') : PRIVATE.check(address, 'ipv6');
  }
  return true;
}

export const PRIVATE_TARGET_REFUSED =
  'Webhook URL refused: it resolves to a loopback, private, link-local or metadata address (set ALLOW_PRIVATE_WEBHOOK_TARGETS=true to allow internal targets)';

/**
 * Webhook URLs come from clients, so by default they may not point into our own network (SSRF).
 * The check resolves the host once; ALLOW_PRIVATE_WEBHOOK_TARGETS lifts it for tests and intranets.
 * Error texts never hold the URL: chat webhook URLs carry their token in the path or query.
 */
export async function assertPublicTarget(rawUrl: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ProviderError('Invalid webhook URL', false, undefined, 'target');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProviderError('Webhook URL must be http or https', false, undefined, 'target');
  if (allowPrivate) return url;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((entry) => entry.address);
  if (addresses.length === 0) throw new ProviderError('Webhook host does not resolve', true, undefined, 'target');
  if (addresses.some(isPrivateAddress)) throw new ProviderError(PRIVATE_TARGET_REFUSED, false, undefined, 'target');
  return url;
}
