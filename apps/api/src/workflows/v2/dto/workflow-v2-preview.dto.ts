import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, ValidateNested } from 'class-validator';

export class PreviewPayloadV2Dto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() subscriber?: Record<
    string,
    unknown
  >;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() actor?: Record<
    string,
    unknown
  >;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() payload?: Record<
    string,
    unknown
  >;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() steps?: Record<
    string,
    unknown
  >;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() context?: Record<
    string,
    unknown
  >;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true }) @IsOptional() @IsObject() env?: Record<
    string,
    unknown
  >;
}

export class GeneratePreviewV2Dto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "Controls to preview instead of the step's stored ones",
  })
  @IsOptional()
  @IsObject()
  controlValues?: Record<string, unknown>;

  @ApiPropertyOptional({ type: PreviewPayloadV2Dto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PreviewPayloadV2Dto)
  previewPayload?: PreviewPayloadV2Dto;
}
