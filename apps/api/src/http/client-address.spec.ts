import { describe, expect, it } from '@jest/globals';
import { clientBudgetId } from './client-address.js';

describe('clientBudgetId', () => {
  it('keeps an IPv4 address, also one mapped into IPv6', () => {
    expect(clientBudgetId('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBudgetId('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('gives the addresses of one IPv6 /64 one budget, written the same however the address was', () => {
    const budget = '2001:db8:0:1::/64';
    expect(clientBudgetId('2001:db8::1:0:0:0:1')).toBe(budget);
    expect(clientBudgetId('2001:0DB8:0000:0001:abcd:ef01:2345:6789')).toBe(budget);
    expect(clientBudgetId('2001:db8:0:1::42%eth0')).toBe(budget);
    expect(clientBudgetId('2001:db8:0:2::42')).toBe('2001:db8:0:2::/64');
  });

  it('expands :: wherever it stands, and an IPv4 tail', () => {
    expect(clientBudgetId('::1')).toBe('0:0:0:0::/64');
    expect(clientBudgetId('fe80::')).toBe('fe80:0:0:0::/64');
    expect(clientBudgetId('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });
});
