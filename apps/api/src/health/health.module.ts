import { Module } from '@nestjs/common';
import { EventLoopMonitor } from './event-loop-monitor.js';
import { HealthController } from './health.controller.js';

@Module({ controllers: [HealthController], providers: [EventLoopMonitor] })
export class HealthModule {}
