import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../auth/access-areas.js';
import { Auth, type AuthContext } from '../auth/auth-context.js';
import { ApiErrorResponses } from '../http/api-error-responses.js';
import {
  CreateTranslationDto,
  ImportMasterJsonDto,
  MasterJsonQueryDto,
  RESOURCE_TYPES,
  TranslationLocaleParamsDto,
  TranslationResourceParamsDto,
} from './dto/translation-input.dto.js';
import {
  ImportMasterJsonResponseDto,
  MasterJsonResponseDto,
  TranslationGroupResponseDto,
  TranslationResponseDto,
  UploadTranslationsResponseDto,
} from './dto/translation-response.dto.js';
import { TranslationFilesUseCase } from './use-cases/translation-files.use-case.js';
import { TranslationsService } from './use-cases/translations.service.js';

const FILE = { type: 'string', format: 'binary' } as const;

// Novu answers these writes with 200, and its SDK expects exactly that.
@ApiTags('Translations')
@ApiErrorResponses()
@Access('content')
@Controller('v2/translations')
export class TranslationsController {
  constructor(
    private readonly translations: TranslationsService,
    private readonly files: TranslationFilesUseCase,
  ) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({ summary: "Create or replace one locale of a workflow's or layout's translations" })
  @ApiOkResponse({ type: TranslationResponseDto })
  async create(@Auth() auth: AuthContext, @Body() body: CreateTranslationDto): Promise<TranslationResponseDto> {
    return TranslationResponseDto.from(await this.translations.create(auth, body));
  }

  @Post('upload')
  @HttpCode(200)
  @ApiOperation({ summary: 'Upload one resource’s translations as <locale>.json files (all stored, or none)' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    schema: {
      type: 'object',
      required: ['resourceId', 'resourceType', 'files'],
      properties: {
        resourceId: { type: 'string' },
        resourceType: { type: 'string', enum: [...RESOURCE_TYPES] },
        files: { type: 'array', items: FILE },
      },
    },
  })
  @ApiOkResponse({ type: UploadTranslationsResponseDto })
  upload(@Auth() auth: AuthContext, @Body() body: unknown): Promise<UploadTranslationsResponseDto> {
    return this.files.upload(auth, body);
  }

  @Get('master-json')
  @ApiOperation({ summary: 'Every workflow’s and layout’s translations in one locale' })
  @ApiOkResponse({ type: MasterJsonResponseDto })
  exportMaster(@Auth() auth: AuthContext, @Query() query: MasterJsonQueryDto): Promise<MasterJsonResponseDto> {
    return this.files.exportMaster(auth, query.locale);
  }

  @Post('master-json')
  @HttpCode(200)
  @ApiOperation({ summary: 'Import a master JSON for one locale (all resources stored, or none)' })
  @ApiOkResponse({ type: ImportMasterJsonResponseDto })
  importMaster(@Auth() auth: AuthContext, @Body() body: ImportMasterJsonDto): Promise<ImportMasterJsonResponseDto> {
    return this.files.importMaster(auth, body.locale, body.masterJson);
  }

  @Post('master-json/upload')
  @HttpCode(200)
  @ApiOperation({ summary: 'Import a master JSON file named <locale>.json' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', required: ['file'], properties: { file: FILE } } })
  @ApiOkResponse({ type: ImportMasterJsonResponseDto })
  uploadMaster(@Auth() auth: AuthContext, @Body() body: unknown): Promise<ImportMasterJsonResponseDto> {
    return this.files.uploadMaster(auth, body);
  }

  @Get('group/:resourceType/:resourceId')
  @ApiOperation({ summary: 'The locales of a workflow or layout, with their last update' })
  @ApiOkResponse({ type: TranslationGroupResponseDto })
  group(
    @Auth() auth: AuthContext,
    @Param() params: TranslationResourceParamsDto,
  ): Promise<TranslationGroupResponseDto> {
    return this.translations.group(auth, params);
  }

  @Get(':resourceType/:resourceId/:locale')
  @ApiOperation({ summary: 'One locale of a workflow’s or layout’s translations' })
  @ApiOkResponse({ type: TranslationResponseDto })
  async get(@Auth() auth: AuthContext, @Param() params: TranslationLocaleParamsDto): Promise<TranslationResponseDto> {
    return TranslationResponseDto.from(await this.translations.get(auth, params));
  }

  @Delete(':resourceType/:resourceId/:locale')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete one locale of a workflow’s or layout’s translations' })
  @ApiNoContentResponse()
  async delete(@Auth() auth: AuthContext, @Param() params: TranslationLocaleParamsDto): Promise<void> {
    await this.translations.delete(auth, params);
  }

  @Delete(':resourceType/:resourceId')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete every locale of a workflow’s or layout’s translations' })
  @ApiNoContentResponse()
  async deleteGroup(@Auth() auth: AuthContext, @Param() params: TranslationResourceParamsDto): Promise<void> {
    await this.translations.deleteGroup(auth, params);
  }
}
