import { ApiProperty } from '@nestjs/swagger';

export class HealthResponseDto {
  @ApiProperty({ enum: ['ok', 'degraded', 'error'] })
  status: 'ok' | 'degraded' | 'error';

  @ApiProperty({ enum: ['up', 'down'] })
  database: 'up' | 'down';

  @ApiProperty({ enum: ['up', 'down'] })
  queue: 'up' | 'down';

  @ApiProperty({ description: 'Longest event-loop stall of the last 5 s, in ms' })
  eventLoopLagMs: number;

  @ApiProperty({
    description:
      'Longest wait of a queue job this process started in the last 5 s or still holds, in ms (0 on an api-only process)',
  })
  queueWaitMs: number;
}
