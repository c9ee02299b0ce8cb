import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsObject, IsOptional, ValidateIf, ValidateNested } from 'class-validator';

export class WorkflowV2ChannelPreferenceDto {
  @ApiProperty({ default: true }) @IsOptional() @IsBoolean() enabled: boolean = true;
}

export class WorkflowV2AllPreferenceDto {
  @ApiProperty({ default: true }) @IsOptional() @IsBoolean() enabled: boolean = true;
  @ApiProperty({ default: false, description: 'Subscribers cannot change it: the workflow is critical' })
  @IsOptional()
  @IsBoolean()
  readOnly: boolean = false;
}

const Channel = () =>
  applyDecorators(
    ApiPropertyOptional({ type: WorkflowV2ChannelPreferenceDto }),
    IsOptional(),
    IsObject(),
    ValidateNested(),
    Type(() => WorkflowV2ChannelPreferenceDto),
  );

export class WorkflowV2ChannelsPreferenceDto {
  @Channel() in_app?: WorkflowV2ChannelPreferenceDto;
  @Channel() email?: WorkflowV2ChannelPreferenceDto;
  @Channel() sms?: WorkflowV2ChannelPreferenceDto;
  @Channel() chat?: WorkflowV2ChannelPreferenceDto;
  @Channel() push?: WorkflowV2ChannelPreferenceDto;
}

/** One level of Novu's v2 preferences: every channel's default and the `all` switch. */
export class WorkflowV2PreferenceLevelDto {
  @ApiProperty({ type: WorkflowV2AllPreferenceDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => WorkflowV2AllPreferenceDto)
  all: WorkflowV2AllPreferenceDto;

  @ApiProperty({ type: WorkflowV2ChannelsPreferenceDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => WorkflowV2ChannelsPreferenceDto)
  channels: WorkflowV2ChannelsPreferenceDto;
}

const Level = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: WorkflowV2PreferenceLevelDto, nullable: true, description }),
    ValidateIf((_object, value) => value !== undefined && value !== null),
    IsObject(),
    ValidateNested(),
    Type(() => WorkflowV2PreferenceLevelDto),
  );

export class WorkflowV2PreferencesRequestDto {
  @Level('What subscribers start from; overrides `workflow` when set') user?: WorkflowV2PreferenceLevelDto | null;
  @Level("The workflow author's default") workflow?: WorkflowV2PreferenceLevelDto | null;
}

export class WorkflowV2PreferencesResponseDto {
  @ApiPropertyOptional({ type: WorkflowV2PreferenceLevelDto, nullable: true })
  user: WorkflowV2PreferenceLevelDto | null;
  @ApiProperty({ type: WorkflowV2PreferenceLevelDto }) default: WorkflowV2PreferenceLevelDto;
}
