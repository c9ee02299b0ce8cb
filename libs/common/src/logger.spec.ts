import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { loggerSettings, PinoNestLogger, withoutSecrets } from './logger.js';

function capturingLogger(level: string) {
  const lines: { level: number; msg: string; context?: string }[] = [];
  const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { logger, lines };
}

describe('PinoNestLogger', () => {
  it("puts Nest's boot narration (modules, routes) at debug and its other messages at info", () => {
    const { logger, lines } = capturingLogger('debug');
    const nest = new PinoNestLogger(logger);
    nest.log('Starting Nest application...', 'NestFactory');
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('TenantsController {/v1/tenants}:', 'RoutesResolver');
    nest.log('Mapped {/v1/tenants, GET} route', 'RouterExplorer');
    nest.log('Nest application successfully started', 'NestApplication');
    nest.log('something to know', 'SomeService');
    nest.log('without a context');
    expect(lines.map((line) => [line.level, line.msg])).toEqual([
      [20, 'Starting Nest application...'],
      [20, 'AppModule dependencies initialized'],
      [20, 'TenantsController {/v1/tenants}:'],
      [20, 'Mapped {/v1/tenants, GET} route'],
      [20, 'Nest application successfully started'],
      [30, 'something to know'],
      [30, 'without a context'],
    ]);
  });

  it('writes nothing of the boot at the default level, and keeps warnings', () => {
    const { logger, lines } = capturingLogger('info');
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped {/v1/tenants, GET} route', 'RouterExplorer');
    nest.warn('a warning', 'SwaggerModule');
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'a warning', context: 'SwaggerModule' })]);
  });
});

describe('loggerSettings', () => {
  const capture = () => {
    const lines: string[] = [];
    const logger = pino(loggerSettings('info'), { write: (line: string) => lines.push(line) });
    return { logger, lines };
  };

  it('blanks secrets among the first three levels of a logged object ', () => {
    const { logger, lines } = capture();
    const logged = {
      authorization: 'ApiKey top-secret-1',
      req: { method: 'POST', headers: { authorization: 'ApiKey top-secret-2', host: 'example.test' } },
      integration: { providerId: 'sendgrid', credentials: { apiKey: 'top-secret-3' } },
      password: 'top-secret-4',
      apiKey: 'top-secret-5',
      err: new Error('boom'),
    };
    logger.info(logged, 'with secrets');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/top-secret/);
    const line = JSON.parse(lines[0]) as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: 'with secrets',
      apiKey: '[redacted]',
      authorization: '[redacted]',
      password: '[redacted]',
      req: { method: 'POST', headers: { authorization: '[redacted]', host: 'example.test' } },
      integration: { providerId: 'sendgrid', credentials: '[redacted]' },
      err: { message: 'boom', type: 'Error' },
    });
    // The caller's object is not changed by logging it.
    expect(logged.req.headers.authorization).toBe('ApiKey top-secret-2');
    expect(logged.integration.credentials.apiKey).toBe('top-secret-3');
  });

  it('returns an object without secrets as it is, without copying it', () => {
    const plain = { reqId: 'r1', method: 'GET', nested: { statusCode: 200, deeper: { ms: 3 } } };
    expect(withoutSecrets(plain)).toBe(plain);
    const { logger, lines } = capture();
    logger.info(plain, 'request completed');
    expect(JSON.parse(lines[0])).toMatchObject({ reqId: 'r1', nested: { statusCode: 200, deeper: { ms: 3 } } });
  });
});
