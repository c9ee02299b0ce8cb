import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { OptionalNotNull } from '../../http/optional-not-null.js';
import { OffsetQueryDto } from '../../http/pagination.dto.js';

const LAYOUT_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const LAYOUT_ID_MESSAGE = 'layoutId must start with a letter or digit and hold only letters, digits, _ . and -';

/** A layout's email controls: HTML with a `{{content}}` slot (`block` is accepted and stored, rendered as HTML). */
export class LayoutEmailControlsDto {
  @ApiProperty({ description: 'HTML of the layout, with a {{content}} slot for the email body' })
  @IsString()
  body: string;

  @ApiProperty({ enum: ['html', 'block'] })
  @IsIn(['html', 'block'])
  editorType: 'html' | 'block';
}

export class LayoutControlValuesInputDto {
  @ApiPropertyOptional({ type: LayoutEmailControlsDto })
  @OptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => LayoutEmailControlsDto)
  email?: LayoutEmailControlsDto;
}

export class CreateLayoutDto {
  @ApiProperty({ description: 'Unique per environment', maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @Matches(LAYOUT_ID, { message: LAYOUT_ID_MESSAGE })
  layoutId: string;

  @ApiProperty({ maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({
    description: 'Whether `{{t.key}}` in the layout is looked up in its translations',
    default: false,
  })
  @IsOptional()
  @IsBoolean()
  isTranslationEnabled?: boolean;

  @ApiPropertyOptional({ enum: ['dashboard'] })
  @IsOptional()
  @IsIn(['dashboard'])
  source?: 'dashboard';

  @ApiPropertyOptional({
    description:
      "Not in Novu's API: make this the environment's default layout (the first layout of an environment is the default)",
  })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

export class UpdateLayoutDto {
  @ApiProperty({ maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  isTranslationEnabled?: boolean;

  @ApiPropertyOptional({
    type: LayoutControlValuesInputDto,
    nullable: true,
    description: 'Omit to keep the stored control values; null resets them to the starting layout',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => LayoutControlValuesInputDto)
  controlValues?: LayoutControlValuesInputDto | null;

  @ApiPropertyOptional({
    description: "Not in Novu's API: true makes this the environment's default layout (the old default is unset)",
  })
  @IsOptional()
  @IsBoolean()
  isDefault?: boolean;
}

export class DuplicateLayoutDto {
  @ApiProperty({ maxLength: 255 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  name: string;

  @ApiPropertyOptional({ description: 'Derived from the name when omitted', maxLength: 255 })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  @Matches(LAYOUT_ID, { message: LAYOUT_ID_MESSAGE })
  layoutId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  isTranslationEnabled?: boolean;
}

export class ListLayoutsQueryDto extends OffsetQueryDto {
  @ApiPropertyOptional({ enum: ['createdAt', 'updatedAt', 'name'], default: 'createdAt' })
  @IsOptional()
  @IsIn(['createdAt', 'updatedAt', 'name'])
  orderBy: 'createdAt' | 'updatedAt' | 'name' = 'createdAt';

  @ApiPropertyOptional({ enum: ['ASC', 'DESC'], default: 'DESC' })
  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  orderDirection: 'ASC' | 'DESC' = 'DESC';

  @ApiPropertyOptional({ description: 'Part of the name', maxLength: 255 })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  query?: string;
}

export class LayoutPreviewPayloadInputDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Subscriber fields for the preview' })
  @IsOptional()
  @IsObject()
  subscriber?: Record<string, unknown>;
}

export class LayoutPreviewRequestDto {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Control values to preview instead of the stored ones: { email: { body, editorType } }',
  })
  @IsOptional()
  @IsObject()
  controlValues?: Record<string, unknown>;

  @ApiPropertyOptional({ type: LayoutPreviewPayloadInputDto })
  @IsOptional()
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => LayoutPreviewPayloadInputDto)
  previewPayload?: LayoutPreviewPayloadInputDto;
}
