import { Body, Controller, Delete, HttpCode, Param, Put } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { toSubscriberResponse } from '#application';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { CredentialsProviderParams } from './dto/credentials-params.dto.js';
import { SubscriberResponseDto } from './dto/subscriber.dto.js';
import { UpdateCredentialsDto } from './dto/subscriber-v1.dto.js';
import { ReplaceCredentialsUseCase } from './use-cases/replace-credentials.use-case.js';
import { Access } from '../auth/access-areas.js';

// Beside SubscribersV1Controller (which holds the PATCH): the replace and delete forms of the same entry.
@ApiTags('Subscribers')
@ApiErrorResponses()
@Access('content')
@Controller('v1/subscribers/:subscriberId/credentials')
export class SubscriberCredentialsController {
  constructor(private readonly credentials: ReplaceCredentialsUseCase) {}

  @Put()
  @ApiOperation({
    summary: 'Replace provider credentials',
    description:
      "The provider entry's credentials become exactly the ones sent (the PATCH merges them key by key); the entry is added when missing.",
  })
  @ApiOkResponse({ type: SubscriberResponseDto })
  async replace(
    @Auth() auth: AuthContext,
    @Param('subscriberId') subscriberId: string,
    @Body() body: UpdateCredentialsDto,
  ): Promise<SubscriberResponseDto> {
    return toSubscriberResponse(await this.credentials.replace(auth, subscriberId, body));
  }

  @Delete(':providerId')
  @HttpCode(204)
  @ApiOperation({ summary: "Delete a provider's credentials", description: 'Removes every entry of the provider.' })
  @ApiNoContentResponse()
  async remove(@Auth() auth: AuthContext, @Param() params: CredentialsProviderParams): Promise<void> {
    await this.credentials.remove(auth, params.subscriberId, params.providerId);
  }
}
