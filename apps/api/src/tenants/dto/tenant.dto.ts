import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import type { TenantRow } from '#dal';
import { OptionalNotNull } from '../../http/optional-not-null.js';

export class CreateTenantDto {
  @ApiProperty({ description: 'Unique per environment' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  identifier: string;

  @ApiProperty()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}

export class UpdateTenantDto {
  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  identifier?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown> | null;
}

export class TenantResponseDto {
  @ApiProperty() _id: string;
  @ApiProperty() identifier: string;
  @ApiPropertyOptional({ nullable: true }) name: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true }) data: Record<
    string,
    unknown
  > | null;
  @ApiProperty() _environmentId: string;
  @ApiProperty() createdAt: string;
  @ApiProperty() updatedAt: string;

  static from(row: TenantRow): TenantResponseDto {
    return {
      _id: row.id,
      identifier: row.identifier,
      name: row.name,
      data: row.data ?? null,
      _environmentId: row.environmentId,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }
}

export class TenantPageDto {
  @ApiProperty({ type: [TenantResponseDto] }) data: TenantResponseDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
  @ApiProperty() totalCount: number;
}
