import { Injectable } from '@nestjs/common';
import { CredentialsCipher, toIntegrationResponse, type IntegrationResponse } from '#application';
import type { IntegrationRow } from '#dal';

/** Rows leave the module only through here, with their credentials decrypted. */
@Injectable()
export class IntegrationPresenter {
  constructor(private readonly cipher: CredentialsCipher) {}

  present(row: IntegrationRow): IntegrationResponse {
    return toIntegrationResponse(row, this.cipher.decrypt(row.credentials));
  }

  /**
   * For the organization-wide active list: a key reads the secrets of its own environment only, so
   * another environment's integrations come with `credentials: {}` (never decrypted).
   */
  presentFor(environmentId: string, row: IntegrationRow): IntegrationResponse {
    return row.environmentId === environmentId ? this.present(row) : toIntegrationResponse(row, {});
  }
}
