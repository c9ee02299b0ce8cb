import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';

/** Paths pino blanks in every log line: no secret reaches the logs. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'credentials',
  '*.credentials',
  'apiKey',
  '*.apiKey',
  'password',
  '*.password',
];

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { pid: process.pid } });
}

/** Routes Nest's own log calls into the same JSON stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('LOGGER');
