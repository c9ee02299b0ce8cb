import { All, Controller } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DomainError } from '#common';
import { Public } from '../auth/auth-context.js';

function unsupported(what: string): never {
  throw new DomainError('NOT_FOUND', `${what} are not supported by this service`);
}

/**
 * Inbox routes @novu/js has that this service does not serve, answered with a clear 404 in the
 * error body rather than the router's anonymous one.
 */
@ApiExcludeController()
@Public()
@Controller('v1/inbox')
export class InboxUnsupportedController {
  @All(['chat', 'chat/*'])
  chat(): never {
    return unsupported('Chat OAuth connections');
  }

  @All(['channel-connections', 'channel-connections/*'])
  channelConnections(): never {
    return unsupported('Channel connections');
  }

  @All(['channel-endpoints', 'channel-endpoints/*'])
  channelEndpoints(): never {
    return unsupported('Channel endpoints');
  }

  @All('events')
  events(): never {
    return unsupported('Keyless inbox events');
  }
}
