import { Injectable } from '@nestjs/common';
import { CredentialsCipher } from '#application';
import type { HmacSwitches } from '#dal';

/** Decrypted answers kept; an envelope has a random IV, so one envelope always holds the same credentials. */
const MAX_REMEMBERED_ENVELOPES = 1_000;

/**
 * Whether an environment's inbox sessions must prove their subscriberId with a subscriberHash: the
 * environment says so (operator CLI), or (Novu's switch) one of its active in_app integrations has
 * `credentials.hmac: true`. Asked on every inbox request, so decrypted envelopes are remembered.
 */
@Injectable()
export class HmacRequirement {
  private readonly hmacByEnvelope = new Map<string, boolean>();

  constructor(private readonly cipher: CredentialsCipher) {}

  required(switches: HmacSwitches): boolean {
    return switches.requireHmac || switches.inAppCredentials.some((envelope) => this.saysHmac(envelope));
  }

  private saysHmac(envelope: string): boolean {
    let hmac = this.hmacByEnvelope.get(envelope);
    if (hmac === undefined) {
      hmac = this.cipher.decrypt(envelope).hmac === true;
      if (this.hmacByEnvelope.size >= MAX_REMEMBERED_ENVELOPES) this.hmacByEnvelope.clear();
      this.hmacByEnvelope.set(envelope, hmac);
    }
    return hmac;
  }
}
