import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import { PageQueryDto } from '../http/pagination.dto.js';
import { CreateTenantDto, TenantPageDto, TenantResponseDto, UpdateTenantDto } from './dto/tenant.dto.js';
import { TenantsService } from './tenants.service.js';
import { Access } from '../auth/access-areas.js';

@ApiTags('Tenants')
@ApiErrorResponses()
@Access('content')
@Controller('v1/tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Post()
  @ApiOperation({ summary: 'Create a tenant' })
  @ApiCreatedResponse({ type: TenantResponseDto })
  async create(@Auth() auth: AuthContext, @Body() body: CreateTenantDto): Promise<TenantResponseDto> {
    return TenantResponseDto.from(await this.tenants.create(auth, body));
  }

  @Get()
  @ApiOperation({ summary: 'List tenants' })
  @ApiOkResponse({ type: TenantPageDto })
  async list(@Auth() auth: AuthContext, @Query() query: PageQueryDto): Promise<TenantPageDto> {
    const page = await this.tenants.list(auth, query.page, query.limit);
    return { ...page, data: page.data.map((row) => TenantResponseDto.from(row)) };
  }

  @Get(':identifier')
  @ApiOperation({ summary: 'Get a tenant' })
  @ApiOkResponse({ type: TenantResponseDto })
  async get(@Auth() auth: AuthContext, @Param('identifier') identifier: string): Promise<TenantResponseDto> {
    return TenantResponseDto.from(await this.tenants.get(auth, identifier));
  }

  @Patch(':identifier')
  @ApiOperation({ summary: 'Update a tenant' })
  @ApiOkResponse({ type: TenantResponseDto })
  async update(
    @Auth() auth: AuthContext,
    @Param('identifier') identifier: string,
    @Body() body: UpdateTenantDto,
  ): Promise<TenantResponseDto> {
    return TenantResponseDto.from(await this.tenants.update(auth, identifier, body));
  }

  @Delete(':identifier')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a tenant' })
  @ApiNoContentResponse()
  async delete(@Auth() auth: AuthContext, @Param('identifier') identifier: string): Promise<void> {
    await this.tenants.delete(auth, identifier);
  }
}
