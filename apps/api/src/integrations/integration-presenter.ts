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
}
