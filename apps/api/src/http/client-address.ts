import { isIPv6 } from 'node:net';

/** The 16-bit groups of an IPv6 address, `::` expanded (an embedded IPv4 tail counts as two). */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split('::');
  const groupsOf = (part: string | undefined) =>
    part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : [];
  const before = groupsOf(head);
  const after = groupsOf(tail);
  const zeros = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill('0');
  return [...before, ...zeros, ...after];
}

/**
 * Who a per-client budget belongs to. An IPv6 client usually holds a whole /64 and may pick any
 * address in it, so its budget is its /64's; an IPv4-mapped address is its IPv4 address.
 */
export function clientBudgetId(address: string): string {
  const withoutZone = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(withoutZone);
  if (mapped) return mapped[1];
  if (!isIPv6(withoutZone)) return withoutZone;
  const prefix = ipv6Groups(withoutZone)
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}
