import { Injectable } from '@nestjs/common';
import { isLocale, LOCALE_MESSAGE, TRANSLATION_LIMITS, TranslationCache } from '#application';
import { DomainError } from '#common';
import { TranslationRepository } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import { multipartBody, type UploadedFile } from '../../http/multipart.js';
import { RESOURCE_TYPES } from '../dto/translation-input.dto.js';
import type {
  ImportMasterJsonResponseDto,
  MasterJsonResponseDto,
  UploadTranslationsResponseDto,
} from '../dto/translation-response.dto.js';
import { TranslationWriter, type TranslationInput } from './translation-writer.js';

const MASTER_SECTIONS = { workflows: 'workflow', layouts: 'layout' } as const;
type MasterSection = keyof typeof MASTER_SECTIONS;

/** `de_DE.json` → de_DE; any other name is a 422, as the locale of a file is its name. */
function localeOfFile(file: UploadedFile, field: string): string {
  const locale = /^(.+)\.json$/.exec(file.fileName)?.[1];
  if (!isLocale(locale))
    throw DomainError.validation(
      field,
      `${field} is named "${file.fileName}": a file is named <locale>.json, its locale ${LOCALE_MESSAGE}`,
    );
  return locale;
}

/** The file's JSON; a file over the size limit or that does not parse is a 422 naming it. */
function jsonOfFile(file: UploadedFile, field: string): unknown {
  if (file.bytes > TRANSLATION_LIMITS.contentBytes)
    throw DomainError.validation(
      field,
      `${field} (${file.fileName}) is over ${TRANSLATION_LIMITS.contentBytes / 1024} KB`,
    );
  try {
    return JSON.parse(file.text) as unknown;
  } catch (error) {
    throw DomainError.validation(field, `${field} (${file.fileName}) is not valid JSON: ${(error as Error).message}`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Translation files: one file per locale for one resource, and the master JSON (every resource's
 * content in one locale) that translators' tools exchange. Every write is all or nothing.
 */
@Injectable()
export class TranslationFilesUseCase {
  constructor(
    private readonly writer: TranslationWriter,
    private readonly translations: TranslationRepository,
    private readonly cache: TranslationCache,
  ) {}

  async upload(auth: AuthContext, body: unknown): Promise<UploadTranslationsResponseDto> {
    const { fields, files } = multipartBody(body);
    const resourceType = fields.resourceType as (typeof RESOURCE_TYPES)[number];
    if (!RESOURCE_TYPES.includes(resourceType))
      throw DomainError.validation('resourceType', 'resourceType must be workflow or layout', fields.resourceType);
    if (!fields.resourceId) throw DomainError.validation('resourceId', 'resourceId is required');
    if (files.length === 0) throw DomainError.validation('files', 'files must hold at least one <locale>.json file');
    if (files.length > TRANSLATION_LIMITS.localesPerResource)
      throw DomainError.validation('files', `files holds at most ${TRANSLATION_LIMITS.localesPerResource} files`);
    const resource = await this.writer.resource(auth, resourceType, fields.resourceId);
    const seen = new Set<string>();
    const inputs: TranslationInput[] = files.map((file, index) => {
      const field = `files[${index}]`;
      const locale = localeOfFile(file, field);
      if (seen.has(locale)) throw DomainError.validation(field, `${field}: two files are named ${locale}.json`);
      seen.add(locale);
      return {
        resourceType: resource.resourceType,
        resourceId: resource.resourceId,
        locale,
        content: jsonOfFile(file, field),
        field,
      };
    });
    await this.writer.write(auth, inputs);
    return { totalFiles: files.length, successfulUploads: files.length, failedUploads: 0, errors: [] };
  }

  /** One locale of every workflow and layout of the environment that has it (the default locale when none is named). */
  async exportMaster(auth: AuthContext, locale?: string): Promise<MasterJsonResponseDto> {
    const chosen = locale ?? (await this.cache.of(auth.environmentId)).defaultLocale;
    const rows = (await this.translations.listAll(auth.environmentId)).filter((row) => row.locale === chosen);
    const master: MasterJsonResponseDto = { workflows: {}, layouts: {} };
    for (const row of rows) {
      // Deleting a resource deletes its translations; any left by a resource gone another way are not exported.
      if (!(await this.writer.find(auth.environmentId, row.resourceType, row.resourceId))) continue;
      master[row.resourceType === 'workflow' ? 'workflows' : 'layouts'][row.resourceId] = row.content;
    }
    return master;
  }

  async importMaster(
    auth: AuthContext,
    locale: string,
    masterJson: unknown,
    field = 'masterJson',
  ): Promise<ImportMasterJsonResponseDto> {
    if (!isObject(masterJson)) throw DomainError.validation(field, `${field} must be an object`);
    const inputs: TranslationInput[] = [];
    const unknown: string[] = [];
    for (const [section, entries] of Object.entries(masterJson)) {
      const resourceType = MASTER_SECTIONS[section as MasterSection] as 'workflow' | 'layout' | undefined;
      if (!resourceType)
        throw DomainError.validation(`${field}.${section}`, `${field} holds only workflows and layouts`);
      if (!isObject(entries))
        throw DomainError.validation(`${field}.${section}`, `${field}.${section} must be an object`);
      if (Object.keys(entries).length > TRANSLATION_LIMITS.keys)
        throw DomainError.validation(
          `${field}.${section}`,
          `${field}.${section} holds at most ${TRANSLATION_LIMITS.keys} entries`,
        );
      for (const [key, content] of Object.entries(entries)) {
        const resource = await this.writer.find(auth.environmentId, resourceType, key);
        if (!resource) unknown.push(`${section}.${key}`);
        else inputs.push({ ...resource, locale, content, field: `${field}.${section}.${key}` });
      }
    }
    // Nothing partial: a master JSON naming a resource this environment lacks is refused whole.
    if (unknown.length > 0)
      throw DomainError.validation(
        field,
        `${field} names resources this environment does not have: ${unknown.join(', ')}`,
      );
    if (inputs.length === 0) return { success: false, message: 'No supported resources found in the master JSON' };
    await this.writer.write(auth, inputs);
    return {
      success: true,
      message: `Imported ${locale} translations of ${inputs.length} resource(s)`,
      successful: inputs.map((input) => input.resourceId),
    };
  }

  async uploadMaster(auth: AuthContext, body: unknown): Promise<ImportMasterJsonResponseDto> {
    const { files } = multipartBody(body);
    if (files.length !== 1 || files[0].field !== 'file')
      throw DomainError.validation('file', 'Send exactly one file, in the field "file", named <locale>.json');
    const locale = localeOfFile(files[0], 'file');
    return this.importMaster(auth, locale, jsonOfFile(files[0], 'file'), 'file');
  }
}
