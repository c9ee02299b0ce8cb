import { describe, expect, it } from '@jest/globals';
import { pino } from 'pino';
import { PinoNestLogger } from './logger.js';

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
