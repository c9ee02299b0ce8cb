import { createHash, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Header, NotFoundException, Req } from '@nestjs/common';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import { AppConfig, DomainError, metricsRegistry, queueDepth, showMaintenance } from '#common';
import { MaintenanceStatusRepository } from '#dal';
import { JobQueue, MAINTENANCE_JOB } from '#event-processing/producer';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/auth-context.js';
import { DashboardSessionAuthenticator } from '../auth/dashboard-session.authenticator.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Prometheus text at GET /metrics: no API key (a scraper has none); with METRICS_TOKEN set it needs
 * `Authorization: Bearer <token>` or a dashboard admin's session (the System page, which holds no
 * token), else 401 (403 for another role's session). METRICS_ENABLED=false turns it off.
 */
@Controller('metrics')
export class MetricsController {
  /** Compared as SHA-256 digests: equal lengths for timingSafeEqual, whatever the client sends. */
  private readonly expected?: Buffer;

  constructor(
    private readonly config: AppConfig,
    private readonly queue: JobQueue,
    private readonly maintenance: MaintenanceStatusRepository,
    private readonly dashboard: DashboardSessionAuthenticator,
  ) {
    if (config.metricsToken) this.expected = digest(`Bearer ${config.metricsToken}`);
  }

  @Public()
  @Get()
  @ApiExcludeEndpoint()
  @Header('Content-Type', metricsRegistry.contentType)
  async metrics(@Req() request: FastifyRequest): Promise<string> {
    if (!this.config.metricsEnabled) throw new NotFoundException('Cannot GET /metrics');
    if (this.expected && !timingSafeEqual(digest(request.headers.authorization ?? ''), this.expected))
      await this.admitDashboardAdmin(request);
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

  private async admitDashboardAdmin(request: FastifyRequest): Promise<void> {
    // A header is the scraper's: its wrong token is refused whatever cookie rides along.
    const role = request.headers.authorization === undefined ? await this.dashboard.roleOf(request) : undefined;
    if (role === 'admin') return;
    if (role) throw new DomainError('FORBIDDEN', `GET /metrics needs the admin role; you are ${role}`);
    throw new DomainError(
      'UNAUTHORIZED',
      "GET /metrics needs Authorization: Bearer <METRICS_TOKEN> or a dashboard admin's session",
      undefined,
      { 'www-authenticate': 'Bearer' },
    );
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
