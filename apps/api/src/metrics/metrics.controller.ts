import { Controller, Get, Header, NotFoundException } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { AppConfig, metricsRegistry, queueDepth } from '#common';
import { JobQueue } from '#event-processing';
import { Public } from '../auth/auth-context.js';

/** Prometheus text at GET /metrics (no auth; METRICS_ENABLED=false turns it off). */
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly config: AppConfig,
    private readonly queue: JobQueue,
  ) {}

  @Public()
  @Get()
  @ApiExcludeEndpoint()
  @Header('Content-Type', metricsRegistry.contentType)
  async metrics(): Promise<string> {
    if (!this.config.metricsEnabled) throw new NotFoundException('Cannot GET /metrics');
    try {
      for (const [queue, counts] of Object.entries(await this.queue.depth())) {
        for (const [state, value] of Object.entries(counts)) queueDepth.set({ queue, state }, value);
      }
    } catch {
      // An unreachable queue must not hide the other metrics; its gauges keep their last values.
    }
    return metricsRegistry.metrics();
  }
}
