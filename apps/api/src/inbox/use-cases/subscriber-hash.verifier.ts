import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { CredentialsCipher, TenancyService } from '#application';
import { IntegrationRepository, type Environment } from '#dal';

function hashMatches(subscriberId: string, key: string, given: string): boolean {
  const expected = Buffer.from(createHmac('sha256', key).update(subscriberId).digest('hex'));
  const actual = Buffer.from(given.toLowerCase());
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * The HMAC check of an inbox session, so a browser cannot open the inbox of any subscriberId it
 * likes. Required when the environment says so, or (Novu's switch) when its active in_app
 * integration has `credentials.hmac: true`. The hash may be made with any of the environment's keys
 * the server can recover.
 */
@Injectable()
export class SubscriberHashVerifier {
  constructor(
    private readonly tenancy: TenancyService,
    private readonly integrations: IntegrationRepository,
    private readonly cipher: CredentialsCipher,
  ) {}

  /** True when the subscriberId is proven by a hash; false when the environment does not ask for one. */
  async verify(environment: Environment, subscriberId: string, subscriberHash: string | undefined): Promise<boolean> {
    if (!(await this.required(environment))) return false;
    if (!subscriberHash) throw new DomainError('UNAUTHORIZED', 'This environment requires a subscriberHash');
    const keys = await this.tenancy.recoverableKeys(environment.id);
    if (keys.length === 0) {
      throw new DomainError(
        'UNAUTHORIZED',
        'This environment requires a subscriberHash, but none of its API keys can be recovered to check it: create a new API key',
      );
    }
    if (!keys.some((key) => hashMatches(subscriberId, key, subscriberHash)))
      throw new DomainError('UNAUTHORIZED', 'Invalid subscriberHash');
    return true;
  }

  private async required(environment: Environment): Promise<boolean> {
    if (environment.requireHmac) return true;
    const inApp = await this.integrations.listActiveByChannel(environment.id, 'in_app');
    return inApp.some((integration) => this.cipher.decrypt(integration.credentials).hmac === true);
  }
}
