import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../../auth/access-areas.js';
import { Auth, type AuthContext } from '../../auth/auth-context.js';
import { ApiErrorResponses } from '../../http/api-error-responses.js';
import { DeletedDto } from '../../http/deleted-response.js';
import { ReplayedWithout } from '../../http/idempotency/idempotency.guard.js';
import { ApiKeyDto, CreatedApiKeyDto } from './api-key.dto.js';
import { CreateApiKeyUseCase } from './create-api-key.use-case.js';
import { ListApiKeysUseCase } from './list-api-keys.use-case.js';
import { RevokeApiKeyUseCase } from './revoke-api-key.use-case.js';

/** Not in Novu, whose keys are regenerated, not listed by prefix: the operator's key management. */
@ApiTags('Environments')
@ApiErrorResponses()
@Access('apiKeys')
@Controller('v1/environments/:environmentId/api-keys')
export class ApiKeysController {
  constructor(
    private readonly listKeys: ListApiKeysUseCase,
    private readonly createKey: CreateApiKeyUseCase,
    private readonly revokeKey: RevokeApiKeyUseCase,
  ) {}

  @Get()
  @ApiOperation({ summary: "List an environment's API keys, oldest first (their prefix, never the key)" })
  @ApiOkResponse({ type: [ApiKeyDto] })
  list(@Auth() auth: AuthContext, @Param('environmentId') environmentId: string): Promise<ApiKeyDto[]> {
    return this.listKeys.execute(auth, environmentId);
  }

  @Post()
  // The key is shown once: an Idempotency-Key row never stores it, and a replay answers without it.
  @ReplayedWithout((body) => ({ ...(body as CreatedApiKeyDto), key: undefined }))
  @ApiOperation({ summary: 'Create an API key for an environment (the key is in this answer only)' })
  @ApiCreatedResponse({ type: CreatedApiKeyDto })
  create(@Auth() auth: AuthContext, @Param('environmentId') environmentId: string): Promise<CreatedApiKeyDto> {
    return this.createKey.execute(auth, environmentId);
  }

  @Delete(':keyId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an API key: the next request that sends it is refused (401)' })
  @ApiOkResponse({ type: DeletedDto })
  async revoke(
    @Auth() auth: AuthContext,
    @Param('environmentId') environmentId: string,
    @Param('keyId') keyId: string,
  ): Promise<DeletedDto> {
    await this.revokeKey.execute(auth, environmentId, keyId);
    return DeletedDto.value;
  }
}
