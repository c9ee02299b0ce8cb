import { Injectable } from '@nestjs/common';
import { DomainError } from '#common';
import { TranslationRepository, type TranslationRow } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type {
  CreateTranslationDto,
  TranslationLocaleParamsDto,
  TranslationResourceParamsDto,
} from '../dto/translation-input.dto.js';
import type { TranslationGroupResponseDto } from '../dto/translation-response.dto.js';
import { TranslationWriter } from './translation-writer.js';

/** One locale of one resource, and the group of a resource's locales. */
@Injectable()
export class TranslationsService {
  constructor(
    private readonly writer: TranslationWriter,
    private readonly translations: TranslationRepository,
  ) {}

  async create(auth: AuthContext, body: CreateTranslationDto): Promise<TranslationRow> {
    const resource = await this.writer.resource(auth, body.resourceType, body.resourceId);
    const [row] = await this.writer.write(auth, [
      {
        resourceType: resource.resourceType,
        resourceId: resource.resourceId,
        locale: body.locale,
        content: body.content,
        field: 'content',
      },
    ]);
    return row;
  }

  async get(auth: AuthContext, params: TranslationLocaleParamsDto): Promise<TranslationRow> {
    const resource = await this.writer.resource(auth, params.resourceType, params.resourceId);
    const row = await this.translations.find(auth.environmentId, resource, params.locale);
    if (!row)
      throw new DomainError(
        'NOT_FOUND',
        `No ${params.locale} translation for ${params.resourceType} ${params.resourceId}`,
      );
    return row;
  }

  async delete(auth: AuthContext, params: TranslationLocaleParamsDto): Promise<void> {
    const resource = await this.writer.resource(auth, params.resourceType, params.resourceId);
    if (!(await this.writer.delete(auth, resource, params.locale)))
      throw new DomainError(
        'NOT_FOUND',
        `No ${params.locale} translation for ${params.resourceType} ${params.resourceId}`,
      );
  }

  async group(auth: AuthContext, params: TranslationResourceParamsDto): Promise<TranslationGroupResponseDto> {
    const resource = await this.writer.resource(auth, params.resourceType, params.resourceId);
    const rows = await this.translations.listOfResource(auth.environmentId, resource);
    if (rows.length === 0)
      throw new DomainError('NOT_FOUND', `No translations for ${params.resourceType} ${params.resourceId}`);
    const times = (pick: (row: TranslationRow) => Date) => rows.map((row) => pick(row).getTime());
    return {
      resourceId: resource.resourceId,
      resourceType: resource.resourceType,
      resourceName: resource.name,
      locales: rows.map((row) => row.locale),
      createdAt: new Date(Math.min(...times((row) => row.createdAt))).toISOString(),
      updatedAt: new Date(Math.max(...times((row) => row.updatedAt))).toISOString(),
    };
  }

  async deleteGroup(auth: AuthContext, params: TranslationResourceParamsDto): Promise<void> {
    const resource = await this.writer.resource(auth, params.resourceType, params.resourceId);
    await this.writer.delete(auth, resource);
  }
}
