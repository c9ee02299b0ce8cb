import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { EachNested } from '../../http/each-nested.js';
import { OptionalNotNull } from '../../http/optional-not-null.js';

/**
 * @novu/api 3.19.1 types a resource's type as `REGULAR | ECHO | BRIDGE` (its schema shares a name
 * with the layout type) and refuses any other value, so answers use `REGULAR` for a workflow (and
 * its steps) and `BRIDGE` for a layout. Requests take those and Novu's own `workflow` and `layout`.
 */
const RESOURCE_TYPES = ['workflow', 'layout', 'REGULAR', 'ECHO', 'BRIDGE'] as const;
export type ResourceTypeValue = (typeof RESOURCE_TYPES)[number];
const ANSWER_RESOURCE_TYPES = ['REGULAR', 'BRIDGE'] as const;
export type AnswerResourceType = (typeof ANSWER_RESOURCE_TYPES)[number];

const sourceDescription =
  'An environment of the organization to compare or publish from; default: the organization’s Development';

export class DiffEnvironmentDto {
  @ApiPropertyOptional({ description: sourceDescription })
  @OptionalNotNull()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  sourceEnvironmentId?: string;
}

export class ResourceToPublishDto {
  @ApiProperty({ enum: RESOURCE_TYPES, description: 'workflow, REGULAR, ECHO: a workflow; layout, BRIDGE: a layout' })
  @IsIn(RESOURCE_TYPES)
  resourceType: ResourceTypeValue;

  @ApiProperty({
    description: "A workflow's trigger identifier or a layout's layoutId, or the source or target row's _id",
    maxLength: 255,
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(255)
  resourceId: string;
}

export class PublishEnvironmentDto extends DiffEnvironmentDto {
  @ApiPropertyOptional({ description: 'Report what would change without changing anything', default: false })
  @OptionalNotNull()
  @IsBoolean()
  dryRun?: boolean;

  @ApiPropertyOptional({
    type: [ResourceToPublishDto],
    maxItems: 1000,
    description: 'Only these resources; default: every change',
  })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(1000)
  @EachNested(() => ResourceToPublishDto)
  resources?: ResourceToPublishDto[];
}

export class DiffResourceRefDto {
  @ApiProperty({ description: "A workflow's trigger identifier or a layout's layoutId" }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ type: String, format: 'date-time' }) updatedAt: string;
}

export class DiffValuesDto {
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  previous: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  new: Record<string, unknown> | null;
}

export class ResourceChangeDto {
  @ApiProperty({ enum: ANSWER_RESOURCE_TYPES }) resourceType: AnswerResourceType;
  @ApiProperty({ enum: ['added', 'modified', 'deleted', 'unchanged'] }) action: string;
  @ApiProperty({ type: DiffValuesDto }) diffs: DiffValuesDto;
  @ApiPropertyOptional({ description: 'For a step: its type' }) stepType?: string;
  @ApiPropertyOptional({ description: "For a step: its position in the target's workflow" }) previousIndex?: number;
  @ApiPropertyOptional({ description: "For a step: its position in the source's workflow" }) newIndex?: number;
}

export class ChangeCountsDto {
  @ApiProperty() added: number;
  @ApiProperty() modified: number;
  @ApiProperty() deleted: number;
  @ApiProperty() unchanged: number;
}

export class ResourceDiffResultDto {
  @ApiProperty({ enum: ANSWER_RESOURCE_TYPES }) resourceType: AnswerResourceType;
  @ApiProperty({ type: DiffResourceRefDto, nullable: true }) sourceResource: DiffResourceRefDto | null;
  @ApiProperty({ type: DiffResourceRefDto, nullable: true }) targetResource: DiffResourceRefDto | null;
  @ApiProperty({ type: [ResourceChangeDto] }) changes: ResourceChangeDto[];
  @ApiProperty({ type: ChangeCountsDto, description: 'The resource itself and, for a workflow, its steps' })
  summary: ChangeCountsDto;
}

export class EnvironmentDiffSummaryDto {
  @ApiProperty({ description: 'Resources listed (the changed ones)' }) totalEntities: number;
  @ApiProperty({ description: 'Added, modified and deleted parts (resources and steps)' }) totalChanges: number;
  @ApiProperty() hasChanges: boolean;
}

export class DiffEnvironmentResponseDto {
  @ApiProperty() sourceEnvironmentId: string;
  @ApiProperty() targetEnvironmentId: string;
  @ApiProperty({ type: [ResourceDiffResultDto] }) resources: ResourceDiffResultDto[];
  @ApiProperty({ type: EnvironmentDiffSummaryDto }) summary: EnvironmentDiffSummaryDto;
}

class PublishedResourceDto {
  @ApiProperty({ enum: ANSWER_RESOURCE_TYPES }) resourceType: AnswerResourceType;
  @ApiProperty({ description: "A workflow's trigger identifier or a layout's layoutId" }) resourceId: string;
  @ApiProperty() resourceName: string;
}

export class SyncedResourceDto extends PublishedResourceDto {
  @ApiProperty({ enum: ['created', 'updated', 'deleted'] }) action: 'created' | 'updated' | 'deleted';
}

export class FailedResourceDto extends PublishedResourceDto {
  @ApiProperty() error: string;
}

export class SkippedResourceDto extends PublishedResourceDto {
  @ApiProperty() reason: string;
}

export class PublishResultDto {
  @ApiProperty({ enum: ANSWER_RESOURCE_TYPES }) resourceType: AnswerResourceType;
  @ApiProperty({ type: [SyncedResourceDto], description: 'Applied (with dryRun: what would be applied)' })
  successful: SyncedResourceDto[];

  @ApiProperty({ type: [FailedResourceDto] }) failed: FailedResourceDto[];
  @ApiProperty({ type: [SkippedResourceDto] }) skipped: SkippedResourceDto[];
  @ApiProperty() totalProcessed: number;
}

export class PublishSummaryDto {
  @ApiProperty() resources: number;
  @ApiProperty() successful: number;
  @ApiProperty() failed: number;
  @ApiProperty() skipped: number;
}

export class PublishEnvironmentResponseDto {
  @ApiProperty({ type: [PublishResultDto] }) results: PublishResultDto[];
  @ApiProperty({ type: PublishSummaryDto }) summary: PublishSummaryDto;
}
