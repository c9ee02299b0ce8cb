import { ApiProperty } from '@nestjs/swagger';
import type { ApiKeySummary } from '#dal';

/** A stored key as it may be shown: its first characters tell keys apart; the key itself is never read back. */
export class ApiKeyDto {
  @ApiProperty() _id: string;

  @ApiProperty() _environmentId: string;

  @ApiProperty({ description: 'The first 8 characters of the key' })
  prefix: string;

  @ApiProperty({ type: String, format: 'date-time' })
  createdAt: string;

  static from(row: ApiKeySummary): ApiKeyDto {
    return {
      _id: row.id,
      _environmentId: row.environmentId,
      prefix: row.prefix,
      createdAt: row.createdAt.toISOString(),
    };
  }
}

/** The answer of a create: the only time the key is shown. */
export class CreatedApiKeyDto extends ApiKeyDto {
  @ApiProperty({ description: 'The key, shown this once: only its hash and an encrypted copy are stored' })
  key: string;
}
