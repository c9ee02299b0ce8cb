import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type pg from 'pg';
import { AppConfig } from '#common';
import { PG_POOL } from '#dal';
import { JobQueue, QueueWaits } from '#event-processing/producer';
import { Public } from '../auth/auth-context.js';
import { EventLoopMonitor } from './event-loop-monitor.js';
import { HealthResponseDto } from './health.dto.js';

const CHECK_TIMEOUT_MS = 2_000;

async function check(probe: () => Promise<unknown>): Promise<'up' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return 'up';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

@ApiTags('Health')
@Controller('health')
export class HealthController {
  constructor(
    @Inject(PG_POOL) private readonly pool: pg.Pool,
    private readonly queue: JobQueue,
    private readonly loop: EventLoopMonitor,
    private readonly waits: QueueWaits,
    private readonly config: AppConfig,
  ) {}

  @Public()
  @Get()
  @ApiOperation({
    summary: 'Liveness and dependency status (no authentication)',
    description:
      '`degraded` (still 200): the event loop stalled longer than HEALTH_MAX_EVENT_LOOP_LAG_MS in the last 5 s, ' +
      'or (worker) a queue job waited longer than WORKER_DEGRADED_WAIT_MS to start',
  })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiServiceUnavailableResponse({ type: HealthResponseDto, description: 'The database is unreachable' })
  async health(@Res({ passthrough: true }) reply: FastifyReply): Promise<HealthResponseDto> {
    const [database, queue] = await Promise.all([
      check(() => this.pool.query('SELECT 1')),
      check(() => this.queue.queue('system').getJobCounts('waiting')),
    ]);
    const eventLoopLagMs = Math.round(this.loop.recentMaxMs());
    const queueWaitMs = this.waits.longestMs();
    const status =
      database !== 'up' || queue !== 'up'
        ? 'error'
        : eventLoopLagMs > this.config.healthMaxEventLoopLagMs || queueWaitMs > this.config.workerDegradedWaitMs
          ? 'degraded'
          : 'ok';
    if (database === 'down') reply.status(503);
    return { status, database, queue, eventLoopLagMs, queueWaitMs };
  }
}
