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
}
