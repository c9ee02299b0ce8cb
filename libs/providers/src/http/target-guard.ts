import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ProviderError } from '../provider.js';

const PRIVATE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv4');
}
// 64:ff9b:1::/48 is NAT64's local-use prefix (RFC 8215): the operator chooses where the IPv4 address
// sits in it and may map private networks, so all of it counts as internal.
for (const [network, prefix] of [
  ['::1', 128],
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b:1::', 48],
] as const) {
  PRIVATE.addSubnet(network, prefix, 'ipv6');
}

/** The 16 bytes of a valid IPv6 address (hex groups, `::`, an optional dotted IPv4 tail, a zone). */
function ipv6Bytes(address: string): number[] {
  const [head, tail = ''] = address.replace(/%.*$/, '').split('::');
  const groups = (part: string) =>
    part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [parseInt(group, 16)];
          const [a, b, c, d] = group.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const left = groups(head);
  const right = address.includes('::') ? groups(tail) : [];
  const words = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return words.flatMap((word) => [word >> 8, word & 0xff]);
}

const startsWith = (bytes: number[], prefix: number[]) => prefix.every((byte, index) => bytes[index] === byte);
const ZEROS_10 = Array<number>(10).fill(0);

/**
 * The IPv4 address an IPv6 address carries, for the forms that reach (or are translated to) it:
 * IPv4-compatible ::a.b.c.d (::/96, deprecated but still routed by some stacks), IPv4-mapped
 * ::ffff:a.b.c.d, IPv4-translated ::ffff:0:a.b.c.d (RFC 2765), NAT64 64:ff9b::a.b.c.d (RFC 6052)
 * and 6to4 2002:AABB:CCDD::/48. A NAT64 or 6to4 address of a public IPv4 stays allowed: on an
 * IPv6-only network DNS64 gives every IPv4-only host such an address.
 */
function embeddedIpv4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  const ipv4 = (offset: number) => bytes.slice(offset, offset + 4).join('.');
  if (startsWith(bytes, [...ZEROS_10, 0, 0])) return ipv4(12);
  if (startsWith(bytes, [...ZEROS_10, 0xff, 0xff])) return ipv4(12);
  if (startsWith(bytes, [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0])) return ipv4(12);
  if (startsWith(bytes, [0, 0x64, 0xff, 0x9b, ...ZEROS_10.slice(0, 8)])) return ipv4(12);
  if (startsWith(bytes, [0x20, 0x02])) return ipv4(2);
  return undefined;
}

function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) {
    const ipv4 = embeddedIpv4(address);
    return (ipv4 !== undefined && PRIVATE.check(ipv4, 'ipv4')) || PRIVATE.check(address, 'ipv6');
  }
  return true;
}

/** The refusal text, naming what was refused ("Webhook URL", "SMTP host"). */
export const privateTargetRefused = (target: string) =>
  `${target} refused: it resolves to a loopback, private, link-local or metadata address (set ALLOW_PRIVATE_WEBHOOK_TARGETS=true to allow internal targets)`;

export const PRIVATE_TARGET_REFUSED = privateTargetRefused('Webhook URL');

/** How host names are resolved for the guard: by default the system resolver (getaddrinfo, as fetch uses). */
export type HostResolver = (host: string) => Promise<LookupAddress[]>;
const systemResolver: HostResolver = (host) => lookup(host, { all: true });
let resolveHost: HostResolver = systemResolver;

/** For tests: a resolver that answers as a hostile DNS server would; without an argument, the system one again. */
export function setHostResolver(resolver?: HostResolver): void {
  resolveHost = resolver ?? systemResolver;
}

const WEBHOOK_TEXTS = { refused: PRIVATE_TARGET_REFUSED, unresolved: 'Webhook host does not resolve' };

async function checkedAddresses(
  host: string,
  texts: { refused: string; unresolved: string },
): Promise<LookupAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  const entries = family ? [{ address: bare, family }] : await resolveHost(bare).catch(() => []);
  if (entries.length === 0) throw new ProviderError(texts.unresolved, true, undefined, 'target');
  if (entries.some((entry) => isPrivateAddress(entry.address)))
    throw new ProviderError(texts.refused, false, undefined, 'target');
  return entries;
}

/**
 * The addresses a host name (or IP literal, IPv6 with or without brackets) resolves to, refused when
 * any of them is internal. Connect to one of these addresses rather than to the name again: a second
 * resolution could answer differently (DNS rebinding).
 */
export async function resolvePublicAddresses(
  host: string,
  texts: { refused: string; unresolved: string } = WEBHOOK_TEXTS,
): Promise<string[]> {
  return (await checkedAddresses(host, texts)).map((entry) => entry.address);
}

/**
 * The `lookup` of every socket to a client-supplied HTTP target (undici's connect options, http2.connect):
 * the name is resolved when the socket connects, every answer is checked, and the socket gets only
 * checked addresses, so an answer that changed since assertPublicTarget (DNS rebinding: public to the
 * check, 127.0.0.1 or 169.254.169.254 to the connection) is refused with the guard's error. The socket
 * keeps the host name for TLS SNI and the Host header. IP literals never reach a lookup; assertPublicTarget
 * checks them.
 */
export const guardedLookup: LookupFunction = (hostname, options: LookupOptions, callback) => {
  checkedAddresses(hostname, WEBHOOK_TEXTS).then(
    (entries) => {
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
      const wanted = family === 4 || family === 6 ? entries.filter((entry) => entry.family === family) : entries;
      if (wanted.length === 0)
        return callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, wanted);
      callback(null, wanted[0].address, wanted[0].family);
    },
    (error: ProviderError) => callback(error, ''),
  );
};

/**
 * Webhook URLs come from clients, so by default they may not point into our own network (SSRF).
 * The check resolves the host once, for an early refusal; the connection checks again through
 * guardedLookup. ALLOW_PRIVATE_WEBHOOK_TARGETS lifts both for tests and intranets.
 * Error texts never hold the URL: chat webhook URLs carry their token in the path or query.
 */
export async function assertPublicTarget(rawUrl: string, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new ProviderError('Invalid webhook URL', false, undefined, 'target');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProviderError('Webhook URL must be http or https', false, undefined, 'target');
  if (allowPrivate) return url;
  await resolvePublicAddresses(url.hostname);
  return url;
}
