import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
} from 'class-validator';
import { PreferenceWorkflowDto } from '../../preferences/dto/bulk-preferences.dto.js';
import { ChannelPreferencesDto, GetPreferencesQueryDto, ScheduleDto } from '../../preferences/dto/preferences.dto.js';
import { SEVERITIES } from '#application';
import { ToArray } from '../../http/query-arrays.js';
import { TagsQuery } from './tags-query.js';
import { EachNested } from '../../http/each-nested.js';

export class InboxPreferencesQueryDto extends GetPreferencesQueryDto {
  @TagsQuery('Workflows carrying any of these tags') tags?: string[];

  @ApiPropertyOptional({ enum: SEVERITIES, isArray: true, description: 'Workflows here have severity none' })
  @IsOptional()
  @ToArray()
  @IsArray()
  @IsIn(SEVERITIES, { each: true })
  severity?: string[];
}

/** PATCH /v1/inbox/preferences: the global channels, flat, and the subscriber's schedule. */
export class InboxGlobalPreferencesDto extends ChannelPreferencesDto {
  // Checked field by field by the preferences use case (unknown day keys are refused, not stripped).
  @ApiPropertyOptional({ description: 'The weekly schedule; null removes it' })
  @Allow()
  schedule?: unknown;
}

export class InboxBulkPreferenceItemDto extends ChannelPreferencesDto {
  @ApiProperty({ description: 'Workflow id or identifier' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  workflowId: string;

  @ApiPropertyOptional({ description: 'Refused: per-subscription preferences are not stored' })
  @IsOptional()
  @IsString()
  subscriptionIdentifier?: string;
}

export class InboxBulkPreferencesDto {
  @ApiProperty({ type: [InboxBulkPreferenceItemDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @EachNested(() => InboxBulkPreferenceItemDto)
  preferences: InboxBulkPreferenceItemDto[];
}

export class InboxPreferenceDto {
  @ApiProperty({ enum: ['global', 'template'] }) level: 'global' | 'template';
  @ApiProperty() enabled: boolean;
  @ApiProperty({ type: ChannelPreferencesDto }) channels: ChannelPreferencesDto;
  @ApiPropertyOptional({ type: PreferenceWorkflowDto, description: 'Workflow entries' })
  workflow?: PreferenceWorkflowDto;
  @ApiPropertyOptional({ type: ScheduleDto, description: 'The global entry' })
  schedule?: ScheduleDto;
}
