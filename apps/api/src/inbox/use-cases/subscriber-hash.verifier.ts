import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { TenancyService } from '#application';
import { IntegrationRepository, type Environment } from '#dal';
import { canonicalJson } from '../canonical-json.js';
import { HmacRequirement } from '../hmac-requirement.js';

/** Novu's subscriberHash (and contextHash): the hex HMAC-SHA256 of the signed text under an API key. */
export const hmacHex = (key: string, signed: string): string => createHmac('sha256', key).update(signed).digest('hex');

interface RecoverableKey {
  id: string;
  key: string;
}

/** What a browser claims when it starts an inbox session. */
export interface SessionClaim {
  subscriberId: string;
  subscriberHash?: string;
  context?: Record<string, unknown>;
  contextHash?: string;
}

export interface SessionProof {
  proofKeyId: string | undefined;
  contextProven: boolean;
}

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
   * What a session's hashes prove: the id of the API key whose hash proves the subscriberId (none when
   * it is not proven), and whether its context is proven. Where no hash is required, a hash given is
   * still checked, so the session survives HMAC being required later; a wrong one then proves nothing
   * and is ignored, as Novu ignores it. The session keeps the key's id: revoking the key ends what its
   * hashes proved. The environment's keys are decrypted once per call, and only when a hash is given.
   */
  async verify(environment: Environment, claim: SessionClaim): Promise<SessionProof> {
    const required = await this.required(environment);
    let keys: Promise<RecoverableKey[]> | undefined;
    const recoverable = () => (keys ??= this.tenancy.recoverableKeys(environment.id));
    const proofKeyId = await this.subscriberProof(required, claim, recoverable);
    const contextProven = await this.contextProof(required, claim, recoverable);
    return { proofKeyId, contextProven };
  }

  private async subscriberProof(
    required: boolean,
    { subscriberId, subscriberHash }: SessionClaim,
    recoverable: () => Promise<RecoverableKey[]>,
  ): Promise<string | undefined> {
    if (!required) {
      if (!subscriberHash) return undefined;
      return (await recoverable()).find(({ key }) => hashMatches(subscriberId, key, subscriberHash))?.id;
    }
    if (!subscriberHash) throw new DomainError('UNAUTHORIZED', 'This environment requires a subscriberHash');
    const keys = await recoverable();
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
   * A context is proven by its contextHash: the HMAC of the context's canonical JSON (canonicalJson),
   * keyed as the subscriberHash is. Where HMAC is required, a session with a context must prove it,
   * else a browser could open the inbox of another tenant's context; elsewhere a hash given is checked
   * and a wrong one proves nothing.
   */
  private async contextProof(
    required: boolean,
    { context, contextHash }: SessionClaim,
    recoverable: () => Promise<RecoverableKey[]>,
  ): Promise<boolean> {
    if (!context || Object.keys(context).length === 0) return true;
    const signed = canonicalJson(context);
    const matches = async (hash: string) => (await recoverable()).some(({ key }) => hashMatches(signed, key, hash));
    if (!required) return contextHash ? matches(contextHash) : false;
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
