import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { EnvironmentRepository, type Environment, type NewApiKey } from '#dal';
import { CredentialsCipher } from '../crypto/credentials-cipher.js';
import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-keys.js';

export const DEFAULT_ENVIRONMENTS = ['Development', 'Production'] as const;

export interface FirstBootResult {
  /** Set only when this boot created the organization: the Development key, shown once. */
  createdDevelopmentKey?: string;
}

/** Organizations, environments and their API keys. */
@Injectable()
export class TenancyService {
  constructor(
    private readonly environments: EnvironmentRepository,
    private readonly cipher: CredentialsCipher,
  ) {}

  /** On an empty database: one organization, Development and Production, a key each (once, whatever boots at once). */
  async ensureFirstBoot(apiKey?: string): Promise<FirstBootResult> {
    const result: FirstBootResult = {};
    const created = await this.environments.createFirstOrganization('Default organization', [...DEFAULT_ENVIRONMENTS]);
    if (created) {
      for (const environment of created) {
        const key = environment.name === 'Development' && apiKey ? apiKey : generateApiKey();
        await this.insertKey(environment, key);
        if (environment.name === 'Development' && !apiKey) result.createdDevelopmentKey = key;
      }
    }
    if (apiKey) await this.ensureKey('Development', apiKey);
    return result;
  }

  async createKey(environmentName: string): Promise<string> {
    const key = generateApiKey();
    await this.ensureKey(environmentName, key);
    return key;
  }

  private async ensureKey(environmentName: string, key: string): Promise<void> {
    const environment = await this.environments.findEnvironmentByName(environmentName);
    if (!environment) throw new DomainError('NOT_FOUND', `Environment ${environmentName} not found`);
    await this.insertKey(environment, key);
  }

  /** Stored hashed for lookups, and encrypted so inbox HMAC hashes (keyed with the raw key) can be checked. */
  storedForm(key: string): NewApiKey {
    return { keyHash: hashApiKey(key), prefix: apiKeyPrefix(key), keyEncrypted: this.cipher.encrypt({ key }) };
  }

  async insertKey(environment: Environment, key: string): Promise<void> {
    const stored = this.storedForm(key);
    await this.environments.insertApiKey(environment, stored.keyHash, stored.prefix, stored.keyEncrypted);
  }

  /** A new environment of the organization with its first key; undefined when the name is taken there. */
  async createEnvironment(
    organizationId: string,
    values: { name: string; color?: string; parentId?: string },
  ): Promise<{ environment: Environment; key: string } | undefined> {
    const key = generateApiKey();
    const environment = await this.environments.createEnvironment(organizationId, values, this.storedForm(key));
    return environment && { environment, key };
  }

  /** The environment's keys that can be recovered (those stored with an encrypted copy), with their ids. */
  async recoverableKeys(environmentId: string): Promise<{ id: string; key: string }[]> {
    const stored = await this.environments.listEncryptedKeys(environmentId);
    return stored.flatMap(({ id, keyEncrypted }) => {
      const { key } = this.cipher.decrypt(keyEncrypted);
      return typeof key === 'string' ? [{ id, key }] : [];
    });
  }
}
