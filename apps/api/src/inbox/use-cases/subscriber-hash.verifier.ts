import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { TenancyService } from '#application';
import { IntegrationRepository, type Environment } from '#dal';
import { canonicalJson } from '../canonical-json.js';
import { HmacRequirement } from '../hmac-requirement.js';

/** Novu's subscriberHash (and contextHash): the hex HMAC-SHA256 of the signed text under an API key. */
export const hmacHex = (key: string, signed: string): string => createHmac('sha256', key).update(signed).digest('hex');

function hashMatches(signed: string, key: string, given: string): boolean {
  const expected = Buffer.from(hmacHex(key, signed));
  const actual = Buffer.from(given.toLowerCase());
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * The HMAC check of an inbox session, so a browser cannot open the inbox of any subscriberId it
 * likes (when it is required: HmacRequirement). The hash may be made with any of the environment's
 * keys the server can recover.
 */
@Injectable()
export class SubscriberHashVerifier {
  constructor(
    private readonly tenancy: TenancyService,
    private readonly integrations: IntegrationRepository,
    private readonly hmac: HmacRequirement,
  ) {}

  /**
   * The id of the API key whose hash proves the subscriberId; none when it is not proven. Where no
   * hash is required, a hash given is still checked, so the session survives HMAC being required
   * later; a wrong one then proves nothing and is ignored, as Novu ignores it. The session keeps the
   * key's id: revoking the key ends what its hashes proved.
   */
  async verify(
    environment: Environment,
    subscriberId: string,
    subscriberHash: string | undefined,
  ): Promise<string | undefined> {
    if (!(await this.required(environment))) {
      if (!subscriberHash) return undefined;
      const keys = await this.tenancy.recoverableKeys(environment.id);
      return keys.find(({ key }) => hashMatches(subscriberId, key, subscriberHash))?.id;
    }
    if (!subscriberHash) throw new DomainError('UNAUTHORIZED', 'This environment requires a subscriberHash');
    const keys = await this.tenancy.recoverableKeys(environment.id);
    if (keys.length === 0) {
      throw new DomainError(
        'UNAUTHORIZED',
        'This environment requires a subscriberHash, but none of its API keys can be recovered to check it: create a new API key',
      );
    }
    const signer = keys.find(({ key }) => hashMatches(subscriberId, key, subscriberHash));
    if (!signer) throw new DomainError('UNAUTHORIZED', 'Invalid subscriberHash');
    return signer.id;
  }

  /**
   * True when a context is proven by its contextHash: the HMAC of the context's canonical JSON
   * (canonicalJson), keyed as the subscriberHash is. Where HMAC is required, a session with a context
   * must prove it, else a browser could open the inbox of another tenant's context; elsewhere a hash
   * given is checked and a wrong one proves nothing.
   */
  async verifyContext(
    environment: Environment,
    context: Record<string, unknown> | undefined,
    contextHash: string | undefined,
  ): Promise<boolean> {
    if (!context || Object.keys(context).length === 0) return true;
    const signed = canonicalJson(context);
    const matches = async (hash: string) =>
      (await this.tenancy.recoverableKeys(environment.id)).some(({ key }) => hashMatches(signed, key, hash));
    if (!(await this.required(environment))) return contextHash ? matches(contextHash) : false;
    if (!contextHash) throw new DomainError('UNAUTHORIZED', 'This environment requires a contextHash with a context');
    if (!(await matches(contextHash))) throw new DomainError('UNAUTHORIZED', 'Invalid contextHash');
    return true;
  }

  private async required(environment: Environment): Promise<boolean> {
    const inApp = await this.integrations.listActiveByChannel(environment.id, 'in_app');
    return this.hmac.required({
      ...environment,
      inAppCredentials: inApp.map((integration) => integration.credentials),
    });
  }
}
