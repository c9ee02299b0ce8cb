import { Injectable } from '@nestjs/common';
import { EnvironmentVariableRepository } from '#dal';
import { ExpiringLoads } from '../cache/expiring-loads.js';
import { CredentialsCipher } from '../crypto/credentials-cipher.js';
import { MASKED_VALUE, openValue } from './variable-values.js';

const TTL_MS = 5_000;
const MAX_ORGANIZATIONS = 1_000;

/** An environment's `env` for templates: the plain values (delivery) and the masked ones (previews). */
export interface EnvironmentValues {
  plain: Record<string, string>;
  masked: Record<string, string>;
}

type OrganizationValues = Map<string, EnvironmentValues>;

const EMPTY: EnvironmentValues = { plain: {}, masked: {} };

/**
 * Every step job renders with its environment's variables. A process loads an organization's
 * variables once (one query, secrets decrypted once) and keeps them a few seconds; the variable
 * routes invalidate on every write, so this process sees an edit at once and others within TTL_MS.
 * Provided only by EnvironmentVariablesCacheModule: a second instance would miss the invalidations.
 */
@Injectable()
export class EnvironmentVariableCache {
  private readonly entries = new ExpiringLoads(TTL_MS, MAX_ORGANIZATIONS, (organizationId) =>
    this.load(organizationId),
  );

  constructor(
    private readonly variables: EnvironmentVariableRepository,
    private readonly cipher: CredentialsCipher,
  ) {}

  async of(organizationId: string, environmentId: string): Promise<EnvironmentValues> {
    return (await this.entries.get(organizationId)).get(environmentId) ?? EMPTY;
  }

  invalidate(organizationId: string): void {
    this.entries.invalidate(organizationId);
  }

  private async load(organizationId: string): Promise<OrganizationValues> {
    const byEnvironment: OrganizationValues = new Map();
    for (const row of await this.variables.list(organizationId)) {
      for (const stored of row.values) {
        let entry = byEnvironment.get(stored.environmentId);
        if (!entry) byEnvironment.set(stored.environmentId, (entry = { plain: {}, masked: {} }));
        const value = this.readable(stored.value, row.isSecret);
        entry.plain[row.key] = value;
        entry.masked[row.key] = row.isSecret ? MASKED_VALUE : value;
      }
    }
    return byEnvironment;
  }

  /** A value sealed with another key (a rotated ENCRYPTION_KEY) renders empty rather than failing every step. */
  private readable(stored: string, isSecret: boolean): string {
    try {
      return openValue(this.cipher, stored, isSecret);
    } catch {
      return '';
    }
  }
}
