import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { CursorQueryDto } from '../../http/pagination.dto.js';
import { SubscriptionDto } from './topic.dto.js';

export class SubscriberTopicsQueryDto extends CursorQueryDto {
  @ApiPropertyOptional({ description: 'Substring of the topic key, case-insensitive' })
  @IsOptional()
  @IsString()
  key?: string;
}

export class SubscriberTopicsPageDto {
  @ApiProperty({ type: [SubscriptionDto] }) data: SubscriptionDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Topic id to pass as `after`' }) next: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Topic id to pass as `before`' }) previous: string | null;
  @ApiProperty({ description: 'Topics of the subscriber, counted up to 50,000' }) totalCount: number;
  @ApiProperty({ description: 'True when there are more than 50,000 (the count stopped)' }) totalCountCapped: boolean;
}
