import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { PROVIDER_CATALOGUE } from '#providers';
import { Access } from '../auth/access-areas.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { ProviderResponseDto } from './dto/provider.dto.js';

/** Apart from the integrations controller, whose answers lose their credentials on the way to the dashboard. */
@ApiTags('Integrations')
@ApiErrorResponses()
@Access('content')
@Controller('v1/integrations/providers')
export class IntegrationProvidersController {
  @Get()
  @ApiOperation({
    summary: 'The providers this service sends through, with the credential fields each reads',
    description: "Not in Novu's API. The same for every environment.",
  })
  @ApiOkResponse({ type: [ProviderResponseDto] })
  list(): readonly ProviderResponseDto[] {
    return PROVIDER_CATALOGUE;
  }
}
