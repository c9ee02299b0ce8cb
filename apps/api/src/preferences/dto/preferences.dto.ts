import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { CHANNELS } from '#common';

const CRITICALITIES = ['critical', 'nonCritical', 'all'] as const;
export type Criticality = (typeof CRITICALITIES)[number];

export class GetPreferencesQueryDto {
  @ApiPropertyOptional({ enum: CRITICALITIES, default: 'nonCritical' })
  @IsOptional()
  @IsIn(CRITICALITIES)
  criticality?: Criticality;
}

export class ChannelPreferencesDto {
  @ApiPropertyOptional() @IsOptional() @IsBoolean() email?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() sms?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() in_app?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() chat?: boolean;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() push?: boolean;
}

export class TimeRangeDto {
  @ApiProperty({ example: '09:00 AM', description: '12-hour clock time with AM or PM' }) start: string;
  @ApiProperty({ example: '05:00 PM', description: 'Earlier than start: the range crosses midnight' }) end: string;
}

export class DayScheduleDto {
  @ApiProperty() isEnabled: boolean;
  @ApiPropertyOptional({ type: [TimeRangeDto], description: 'Absent: open all day' }) hours?: TimeRangeDto[];
}

/** Days missing from an enabled schedule are closed. */
export class WeeklyScheduleDto {
  @ApiPropertyOptional({ type: DayScheduleDto }) monday?: DayScheduleDto;
  @ApiPropertyOptional({ type: DayScheduleDto }) tuesday?: DayScheduleDto;
  @ApiPropertyOptional({ type: DayScheduleDto }) wednesday?: DayScheduleDto;
  @ApiPropertyOptional({ type: DayScheduleDto }) thursday?: DayScheduleDto;
  @ApiPropertyOptional({ type: DayScheduleDto }) friday?: DayScheduleDto;
  @ApiPropertyOptional({ type: DayScheduleDto }) saturday?: DayScheduleDto;
  @ApiPropertyOptional({ type: DayScheduleDto }) sunday?: DayScheduleDto;
}

export class ScheduleDto {
  @ApiProperty() isEnabled: boolean;
  @ApiPropertyOptional({ type: WeeklyScheduleDto }) weeklySchedule?: WeeklyScheduleDto;
}

export class PatchPreferencesDto {
  @ApiPropertyOptional({ type: ChannelPreferencesDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ChannelPreferencesDto)
  channels?: ChannelPreferencesDto;

  @ApiPropertyOptional({
    description: 'Workflow internal _id, trigger identifier or slug; absent → the global preferences',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  workflowId?: string;

  // Checked field by field by validateSchedule (unknown day keys must be rejected, not stripped).
  @ApiPropertyOptional({
    type: ScheduleDto,
    nullable: true,
    description: 'Global only; null removes the saved schedule',
  })
  @Allow()
  schedule?: unknown;
}

export class PreferenceOverrideDto {
  @ApiProperty({ enum: CHANNELS }) channel: string;
  @ApiProperty({ enum: ['subscriber', 'template', 'workflowOverride'] }) source: string;
}

export class WorkflowInfoDto {
  @ApiProperty() slug: string;
  @ApiProperty() identifier: string;
  @ApiProperty() name: string;
  @ApiPropertyOptional() updatedAt?: string;
}

export class GlobalPreferenceDto {
  @ApiProperty() enabled: boolean;
  @ApiProperty({ type: ChannelPreferencesDto }) channels: ChannelPreferencesDto;
  @ApiPropertyOptional({ type: ScheduleDto }) schedule?: ScheduleDto;
}

export class WorkflowPreferenceDto {
  @ApiProperty() enabled: boolean;
  @ApiProperty({ type: ChannelPreferencesDto, description: 'Only the channels of the workflow’s active steps' })
  channels: ChannelPreferencesDto;
  @ApiProperty({ type: [PreferenceOverrideDto] }) overrides: PreferenceOverrideDto[];
  @ApiProperty({ type: WorkflowInfoDto }) workflow: WorkflowInfoDto;
}

export class PreferencesResponseDto {
  @ApiProperty({ type: GlobalPreferenceDto }) global: GlobalPreferenceDto;
  @ApiProperty({ type: [WorkflowPreferenceDto] }) workflows: WorkflowPreferenceDto[];
}
