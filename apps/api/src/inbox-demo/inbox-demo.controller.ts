import { Controller, Get, Header, Query } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/auth-context.js';
import { InboxDemoQueryDto } from './dto/inbox-demo-query.dto.js';
import { InboxDemoPage } from './inbox-demo-page.js';

/**
 * The page runs only its own two scripts and talks only to this origin (its API and socket), so a
 * message that slipped markup past the page's text-only rendering still could not run.
 */
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const SCRIPT_TYPE = 'text/javascript; charset=utf-8';

@ApiExcludeController()
@Public()
@Controller('inbox-demo')
export class InboxDemoController {
  constructor(private readonly demo: InboxDemoPage) {}

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', PAGE_POLICY)
  // The URL can carry a subscriberHash.
  @Header('Referrer-Policy', 'no-referrer')
  @Header('X-Content-Type-Options', 'nosniff')
  async page(@Query() query: InboxDemoQueryDto): Promise<string> {
    return this.demo.page(query.applicationIdentifier);
  }

  @Get('inbox-demo.js')
  @Header('Content-Type', SCRIPT_TYPE)
  @Header('X-Content-Type-Options', 'nosniff')
  script(): string {
    return this.demo.script;
  }

  @Get('socket.io.min.js')
  @Header('Content-Type', SCRIPT_TYPE)
  @Header('X-Content-Type-Options', 'nosniff')
  socketClient(): string {
    return this.demo.socketClient;
  }
}
