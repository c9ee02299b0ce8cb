import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { CredentialsCipher } from '#application';
import { IntegrationRepository, type IntegrationRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { CreateIntegrationDto } from '../dto/integration.dto.js';
import { checkCredentialFormats } from './check-credential-formats.js';

@Injectable()
export class CreateIntegrationUseCase {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly cipher: CredentialsCipher,
  ) {}

  async execute(auth: AuthContext, body: CreateIntegrationDto): Promise<IntegrationRow> {
    checkCredentialFormats(body.providerId, body.credentials);
    const identifier =
      body.identifier ??
      `${body.providerId.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${randomBytes(3).toString('hex')}`;
    const row = await this.integrations.create(
      { environmentId: auth.environmentId, organizationId: auth.organizationId },
      {
        identifier,
        name: body.name ?? body.providerId,
        providerId: body.providerId,
        channel: body.channel,
        credentials: this.cipher.encrypt({ ...body.credentials }),
        configurations: { ...body.configurations },
        active: body.active ?? true,
        conditions: body.conditions ?? [],
      },
    );
    if (!row) throw new DomainError('CONFLICT', `Integration with identifier ${identifier} already exists`);
    return row;
  }
}
