import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { MAX_TAGS } from './workflow-v2-request.dto.js';
import { OffsetQueryDto } from '../../../http/pagination.dto.js';

const toList = ({ value }: { value: unknown }) => (value === undefined || Array.isArray(value) ? value : [value]);

export const WORKFLOW_SORT_FIELDS = ['createdAt', 'updatedAt', 'name', 'lastTriggeredAt'] as const;
export const WORKFLOW_STATUSES = ['ACTIVE', 'INACTIVE', 'ERROR'] as const;

export class ListWorkflowsV2QueryDto extends OffsetQueryDto {
  @ApiPropertyOptional({
    enum: WORKFLOW_SORT_FIELDS,
    default: 'createdAt',
    description: 'lastTriggeredAt orders by createdAt',
  })
  @IsOptional()
  @IsIn(WORKFLOW_SORT_FIELDS)
  orderBy: (typeof WORKFLOW_SORT_FIELDS)[number] = 'createdAt';

  @ApiPropertyOptional({ enum: ['ASC', 'DESC'], default: 'DESC' })
  @IsOptional()
  @IsIn(['ASC', 'DESC'])
  orderDirection: 'ASC' | 'DESC' = 'DESC';

  @ApiPropertyOptional({ description: 'Matches the name or the workflowId (case-insensitive substring)' })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  query?: string;

  @ApiPropertyOptional({ type: [String], description: 'Workflows with any of these tags' })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(MAX_TAGS)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ enum: WORKFLOW_STATUSES, isArray: true })
  @IsOptional()
  @Transform(toList)
  @IsArray()
  @ArrayMaxSize(WORKFLOW_STATUSES.length)
  @IsIn(WORKFLOW_STATUSES, { each: true })
  status?: (typeof WORKFLOW_STATUSES)[number][];
}

export class GetWorkflowV2QueryDto {
  @ApiPropertyOptional({ description: "The caller's environment; any other answers 404" })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  environmentId?: string;
}
