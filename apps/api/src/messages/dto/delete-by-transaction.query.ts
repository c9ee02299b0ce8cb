import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CHANNELS } from '#common';

export class DeleteByTransactionQueryDto {
  @ApiPropertyOptional({ enum: CHANNELS, description: 'Delete only the messages of this channel' })
  @IsOptional()
  @IsIn(CHANNELS)
  channel?: string;
}
