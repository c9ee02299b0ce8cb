import type { LoggerService } from '@nestjs/common';
import { pino, type Logger, type LoggerOptions as LoggerSettings } from 'pino';
import { PinoPretty } from 'pino-pretty';

/** Keys whose values never reach the logs, wherever they are among a logged object's first three levels. */
const SECRET_KEYS = new Set(['authorization', 'credentials', 'apiKey', 'password']);
const SECRET_DEPTH = 3;
const CENSOR = '[redacted]';

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};

/**
 * The object with the value of every secret key replaced, copying only the objects on the way to
 * one; an object without secrets is returned as it is, allocating nothing. Pino's own `redact` option
 * parsed its paths and copied on every line: a sixth of all the api allocated while accepting triggers,
 * at the default info level where every request and trigger logs a line.
 */
export function withoutSecrets<T>(value: T, depth = SECRET_DEPTH): T {
  if (depth === 0 || !isPlainObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    const inner = value[key];
    const replaced = SECRET_KEYS.has(key) && inner !== undefined ? CENSOR : withoutSecrets(inner, depth - 1);
    if (replaced !== inner) (copy ??= { ...value })[key] = replaced;
  }
  return (copy ?? value) as T;
}

export interface LoggerOptions {
  /** One human-readable line per entry, for a person at a terminal; JSON (for machines) otherwise. */
  pretty?: boolean;
}

/** The service's logger settings, apart from where lines go. */
export const loggerSettings = (level: string): LoggerSettings => ({
  level,
  // Each log call's object; a child logger's bindings are not covered (the service binds no values).
  formatters: { log: withoutSecrets },
  base: { pid: process.pid },
});

export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  return pino(loggerSettings(level), options.pretty ? prettyLines() : jsonLines());
}

/** Characters of JSON lines gathered before one write to stdout. */
const LINES_BUFFER_LENGTH = 4_096;
/** The longest a gathered line waits for its write. */
const LINES_FLUSH_MS = 100;

/**
 * JSON lines to stdout, gathered into one write per 4 KB or per 100 ms: at info level a busy process
 * logs a line or two per request and step, and a write per line cost the api about a twentieth of its
 * time in system calls. The lines wait in an array joined once per write; pino's own buffered
 * destination appended each line to one string and measured it again for every line, copying the
 * whole buffer per line (a ninth of all a busy worker allocated). Each batch goes out in one
 * synchronous write (pino's destination in sync mode, which waits out a full pipe), so lines still
 * gathered are written when the process exits, even by `process.exit`; a process killed outright
 * (SIGKILL, out of memory) loses at most its last 100 ms of lines.
 */
class GatheredLines {
  private lines: string[] = [];
  private length = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly out: { write(text: string): unknown }) {
    process.once('exit', () => this.flush());
  }

  write(line: string): boolean {
    this.lines.push(line);
    this.length += line.length;
    if (this.length >= LINES_BUFFER_LENGTH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), LINES_FLUSH_MS).unref();
    return true;
  }

  /** Writes what is gathered. */
  flush(done?: (error?: Error) => void): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.lines.length > 0) {
      const text = this.lines.join('');
      this.lines = [];
      this.length = 0;
      this.out.write(text);
    }
    done?.();
  }
}

/** One for the process: every logger writes to the same stdout. */
let stdoutLines: GatheredLines | undefined;
const jsonLines = () => (stdoutLines ??= new GatheredLines(pino.destination({ dest: 1, sync: true })));

/** Written synchronously like pino's own JSON, so lines keep their order with the boot banner. */
function prettyLines() {
  return PinoPretty({
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}{context}: {end}{msg}',
  });
}

/**
 * Nest's account of its own start (modules wired, every route mapped: a hundred lines) is detail
 * for whoever debugs the boot, not news at every start.
 */
const NEST_BOOT_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

/** Routes Nest's own log calls into the same stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    if (context !== undefined && NEST_BOOT_CONTEXTS.has(context)) this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
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
