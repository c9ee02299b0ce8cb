import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { eventLoopLagMax } from '#common';

const TICK_MS = 100;
/** Stalls are remembered per second, for this many seconds. */
const WINDOW_SECONDS = 5;

/**
 * Measures how late a 100 ms timer fires: a blocked event loop (a long synchronous render, a GC storm)
 * delays every request and heartbeat of the process, yet a health check answered after the stall
 * would say nothing of it. The longest stall of the last seconds is what /health and /metrics report.
 */
@Injectable()
export class EventLoopMonitor implements OnModuleInit, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private expected = 0;
  private readonly stalls: number[] = new Array<number>(WINDOW_SECONDS).fill(0);
  private second = 0;

  onModuleInit(): void {
    this.expected = performance.now() + TICK_MS;
    this.second = Math.floor(performance.now() / 1000);
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** The longest stall of the last few seconds, including one still running, in ms. */
  recentMaxMs(): number {
    const current = Math.max(0, performance.now() - this.expected);
    return Math.max(current, ...this.stalls);
  }

  private tick(): void {
    const now = performance.now();
    const lag = Math.max(0, now - this.expected);
    this.expected = now + TICK_MS;
    const second = Math.floor(now / 1000);
    // Seconds that passed without a tick (a stall spanning them) start empty.
    for (let s = this.second + 1; s <= second && s <= this.second + WINDOW_SECONDS; s++)
      this.stalls[s % WINDOW_SECONDS] = 0;
    this.second = second;
    this.stalls[second % WINDOW_SECONDS] = Math.max(this.stalls[second % WINDOW_SECONDS], lag);
    eventLoopLagMax.set(Math.max(...this.stalls) / 1000);
  }
}
