import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsUUID, Max, Min } from 'class-validator';

/** `?limit=` (1..100) shared by page-numbered and cursor lists. */
class LimitQueryDto {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 10;
}

/** `?page=&limit=` for page-numbered lists (page from 0). */
export class PageQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(100_000)
  page: number = 0;
}

/** `?limit=&offset=` for Novu's offset lists (v2 workflows, layouts). */
export class OffsetQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  offset: number = 0;
}

/** `?limit=&after=&before=` for cursor lists (subscribers, topics, topic subscriptions). */
export class CursorQueryDto extends LimitQueryDto {
  @ApiPropertyOptional({ description: 'Cursor: the `next` of the previous page' })
  @IsOptional()
  @IsUUID()
  after?: string;

  @ApiPropertyOptional({ description: 'Cursor: the `previous` of the current page' })
  @IsOptional()
  @IsUUID()
  before?: string;
}

/** The page object of the notifications list, reused by every page-numbered list. */
export interface Page<T> {
  data: T[];
  page: number;
  pageSize: number;
  hasMore: boolean;
  totalCount?: number;
}
