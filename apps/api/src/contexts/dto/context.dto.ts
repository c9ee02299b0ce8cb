import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  MaxLength,
  registerDecorator,
  ValidateIf,
  type ValidationOptions,
} from 'class-validator';
import type { ContextRow } from '#dal';
import { CursorQueryDto } from '../../http/pagination.dto.js';

/** Novu's rule for both a context's type and its id; neither holds ':', so `type:id` keys read back one way. */
const CONTEXT_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;
const CONTEXT_NAME_MESSAGE = 'may contain only letters, digits, _ and -';
const MAX_CONTEXT_DATA_BYTES = 64 * 1024;

/** `data`: a JSON object of at most 64 KB once serialized. */
function IsContextData(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isContextData',
      target: target.constructor,
      propertyName,
      options: { message: `data must be a JSON object of at most ${MAX_CONTEXT_DATA_BYTES / 1024} KB`, ...options },
      validator: {
        validate: (value: unknown) =>
          typeof value === 'object' &&
          value !== null &&
          !Array.isArray(value) &&
          Buffer.byteLength(JSON.stringify(value)) <= MAX_CONTEXT_DATA_BYTES,
      },
    });
}

const BRIDGE_URL_DESCRIPTION = 'Accepted for compatibility and not stored: this service has no agent bridge';

export class CreateContextDto {
  @ApiProperty({ minLength: 1, maxLength: 100, pattern: CONTEXT_NAME_PATTERN.source, example: 'tenant' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(CONTEXT_NAME_PATTERN, { message: `type ${CONTEXT_NAME_MESSAGE}` })
  type: string;

  @ApiProperty({
    minLength: 1,
    maxLength: 100,
    pattern: CONTEXT_NAME_PATTERN.source,
    description: 'Unique per type within the environment',
    example: 'acme',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(CONTEXT_NAME_PATTERN, { message: `id ${CONTEXT_NAME_MESSAGE}` })
  id: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Read in templates as {{context.<type>.data}}; at most 64 KB',
  })
  @IsOptional()
  @IsContextData()
  data?: Record<string, unknown>;

  @ApiPropertyOptional({ description: BRIDGE_URL_DESCRIPTION })
  @IsOptional()
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  @MaxLength(2048)
  bridgeUrl?: string;
}

export class UpdateContextDto {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Replaces the stored data; at most 64 KB' })
  @IsObject()
  @IsContextData()
  data: Record<string, unknown>;

  @ApiPropertyOptional({ type: String, nullable: true, description: BRIDGE_URL_DESCRIPTION })
  @IsOptional()
  @ValidateIf((_object, value) => value !== null)
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  @MaxLength(2048)
  bridgeUrl?: string | null;
}

/** The path of one context: `/v2/contexts/{type}/{id}`. */
export class ContextPathDto {
  @ApiProperty({ pattern: CONTEXT_NAME_PATTERN.source })
  @IsString()
  @MaxLength(100)
  @Matches(CONTEXT_NAME_PATTERN, { message: `type ${CONTEXT_NAME_MESSAGE}` })
  type: string;

  @ApiProperty({ pattern: CONTEXT_NAME_PATTERN.source })
  @IsString()
  @MaxLength(100)
  @Matches(CONTEXT_NAME_PATTERN, { message: `id ${CONTEXT_NAME_MESSAGE}` })
  id: string;
}

export class ListContextsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ enum: ['ASC', 'DESC'], default: 'DESC', description: 'By creation' })
  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  orderDirection?: 'ASC' | 'DESC';

  @ApiPropertyOptional({ description: 'Accepted; contexts are always ordered by creation' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  orderBy?: string;

  @ApiPropertyOptional({ description: 'Accepted; the cursor item is never included' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  includeCursor?: boolean;

  @ApiPropertyOptional({ description: 'Contexts of this exact id' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  id?: string;

  @ApiPropertyOptional({ description: 'Case-insensitive substring of the type or the id' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  search?: string;
}

export class ContextResponseDto {
  @ApiProperty() type: string;
  @ApiProperty() id: string;
  @ApiProperty({ type: 'object', additionalProperties: true }) data: Record<string, unknown>;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;

  static from(row: ContextRow): ContextResponseDto {
    return {
      type: row.type,
      id: row.identifier,
      data: row.data,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}

export class ContextCursorPageDto {
  @ApiProperty({ type: [ContextResponseDto] }) data: ContextResponseDto[];
  @ApiProperty({ type: String, nullable: true }) next: string | null;
  @ApiProperty({ type: String, nullable: true }) previous: string | null;
  @ApiProperty({ description: 'Contexts matching the filter, counted up to 50,000' }) totalCount: number;
  @ApiProperty({ description: 'True when there are more than 50,000 (the count stopped)' }) totalCountCapped: boolean;
}
