import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';
import { CHANNELS, NOTIFICATION_STATUSES, type Channel, type NotificationStatus } from '#common';
import { PageQueryDto } from '../../http/pagination.dto.js';
import { ToArray } from '../../http/query-arrays.js';
import { ContextKeysFilter } from '../../http/context-keys-filter.js';

const MAX_FILTER_VALUES = 100;

/** The spec's filters, and the shared page query with the spec's smaller limit (1..50). */
export class ListNotificationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: [String], enum: CHANNELS, description: 'Repeated, bracketed or single value' })
  @IsOptional()
  @ToArray()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_VALUES)
  @IsIn(CHANNELS, { each: true })
  channels?: Channel[];

  @ApiPropertyOptional({ type: [String], description: 'Workflow (template) ids' })
  @IsOptional()
  @ToArray()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_VALUES)
  @IsUUID('all', { each: true })
  templates?: string[];

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @ToArray()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_VALUES)
  @IsString({ each: true })
  @MaxLength(320, { each: true })
  emails?: string[];

  @ApiPropertyOptional({ description: 'Deprecated: email substring or exact subscriberId' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  search?: string;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @ToArray()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_VALUES)
  @IsString({ each: true })
  @MaxLength(255, { each: true })
  subscriberIds?: string[];

  // class-validator drops the parent's rules for a redeclared property: all of them are repeated here.
  @ApiPropertyOptional({ minimum: 1, maximum: 50, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(50)
  override limit: number = 10;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  transactionId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(255)
  topicKey?: string;

  @ContextKeysFilter('Only notifications sent with exactly these contexts (`type:id`, any order)')
  contextKeys?: string[];

  @ApiPropertyOptional({
    type: [String],
    enum: NOTIFICATION_STATUSES,
    description:
      'Not in Novu: only notifications with one of these statuses, from their jobs. `failed`: a job failed. ' +
      '`pending`: a job is still pending, queued, running or delayed, and none failed. `completed`: every job ' +
      'finished (completed, canceled, merged or skipped) and none failed. Repeated, bracketed or single value',
  })
  @IsOptional()
  @ToArray()
  @IsArray()
  @ArrayMaxSize(MAX_FILTER_VALUES)
  @IsIn(NOTIFICATION_STATUSES, { each: true })
  statuses?: NotificationStatus[];

  @ApiPropertyOptional({ description: 'ISO 8601; records created at or after' })
  @IsOptional()
  @IsISO8601()
  after?: string;

  @ApiPropertyOptional({ description: 'ISO 8601; records created at or before' })
  @IsOptional()
  @IsISO8601()
  before?: string;
}
