import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Header, Headers, NotFoundException } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { AppConfig, DomainError, metricsRegistry, queueDepth, showMaintenance } from '#common';
import { MaintenanceStatusRepository } from '#dal';
import { JobQueue, MAINTENANCE_JOB } from '#event-processing/producer';
import { Public } from '../auth/auth-context.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Prometheus text at GET /metrics: no API key (a scraper has none); with METRICS_TOKEN set it needs
 * `Authorization: Bearer <token>`, else 401. METRICS_ENABLED=false turns it off.
 */
@Controller('metrics')
export class MetricsController {
  /** Compared as SHA-256 digests: equal lengths for timingSafeEqual, whatever the client sends. */
  private readonly expected?: Buffer;

  constructor(
    private readonly config: AppConfig,
    private readonly queue: JobQueue,
    private readonly maintenance: MaintenanceStatusRepository,
  ) {
    if (config.metricsToken) this.expected = digest(`Bearer ${config.metricsToken}`);
  }

  @Public()
  @Get()
  @ApiExcludeEndpoint()
  @Header('Content-Type', metricsRegistry.contentType)
  async metrics(@Headers('authorization') authorization?: string): Promise<string> {
    if (!this.config.metricsEnabled) throw new NotFoundException('Cannot GET /metrics');
    if (this.expected && !timingSafeEqual(digest(authorization ?? ''), this.expected)) {
      throw new DomainError('UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>', undefined, {
        'www-authenticate': 'Bearer',
      });
    }
    try {
      for (const [queue, counts] of Object.entries(await this.queue.depth())) {
        for (const [state, value] of Object.entries(counts)) queueDepth.set({ queue, state }, value);
      }
    } catch {
      // An unreachable queue must not hide the other metrics; its gauges keep their last values.
    }
    await this.showMaintenance();
    return metricsRegistry.metrics();
  }

  /** The maintenance job runs on a worker and stores what it did: read at scrape time by every process. */
  private async showMaintenance(): Promise<void> {
    try {
      const row = await this.maintenance.find(MAINTENANCE_JOB);
      if (!row) return;
      const { succeeded, failed, skipped, interrupted } = row;
      showMaintenance({ ...row, runs: { succeeded, failed, skipped, interrupted } });
    } catch {
      // An unreachable database must not hide the other metrics either.
    }
  }
}
