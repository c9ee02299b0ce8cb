import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsNotEmpty,
  IsObject,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ChannelPreferencesDto } from './preferences.dto.js';
import { EachNested } from '../../http/each-nested.js';

const MAX_BULK_PREFERENCES = 100;

export class BulkPreferenceItemDto {
  @ApiProperty({ type: ChannelPreferencesDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => ChannelPreferencesDto)
  channels: ChannelPreferencesDto;

  @ApiProperty({ description: 'Workflow internal _id, trigger identifier or slug' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  workflowId: string;
}

export class BulkPatchPreferencesDto {
  @ApiProperty({ type: [BulkPreferenceItemDto], minItems: 1, maxItems: MAX_BULK_PREFERENCES })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_PREFERENCES)
  @EachNested(() => BulkPreferenceItemDto)
  preferences: BulkPreferenceItemDto[];
}

export class PreferenceWorkflowDto {
  @ApiProperty() id: string;
  @ApiProperty() identifier: string;
  @ApiProperty() name: string;
  @ApiProperty() critical: boolean;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Absent when the workflow has none' })
  data?: Record<string, unknown>;
  @ApiProperty({ enum: ['none'], description: 'Workflows here carry no severity' }) severity: 'none';
}

/** One workflow's preference after the update, in Novu's bulk answer shape. */
export class WorkflowPreferenceResultDto {
  @ApiProperty({ enum: ['template'] }) level: 'template';
  @ApiProperty({ type: PreferenceWorkflowDto }) workflow: PreferenceWorkflowDto;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ type: ChannelPreferencesDto, description: 'Only the channels of the workflow’s active steps' })
  channels: ChannelPreferencesDto;
}
