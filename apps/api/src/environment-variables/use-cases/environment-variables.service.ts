import { Injectable } from '@nestjs/common';
import { CredentialsCipher, EnvironmentVariableCache, openValue, sealValue } from '#application';
import { DomainError, isId, type FieldErrors } from '#common';
import {
  EnvironmentRepository,
  EnvironmentVariableRepository,
  type EnvironmentVariableRow,
  type StoredVariableValue,
} from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import {
  MAX_VALUE_BYTES,
  type CreateEnvironmentVariableDto,
  type EnvironmentVariableValueDto,
  type UpdateEnvironmentVariableDto,
} from '../dto/environment-variable.dto.js';

/**
 * Every process caches all of an organization's values (each step reads them): their stored total is bounded,
 * not only each value.
 */
const MAX_ORGANIZATION_VALUE_BYTES = 1024 * 1024;

/**
 * An organization's variables: one key, a value per environment, secret values sealed with the
 * credentials cipher. Every write forgets the organization's cached values so the next step sees it.
 */
@Injectable()
export class EnvironmentVariablesService {
  constructor(
    private readonly variables: EnvironmentVariableRepository,
    private readonly environments: EnvironmentRepository,
    private readonly cipher: CredentialsCipher,
    private readonly cache: EnvironmentVariableCache,
  ) {}

  async create(auth: AuthContext, body: CreateEnvironmentVariableDto): Promise<EnvironmentVariableRow> {
    const values = await this.checkedValues(auth, body.values ?? []);
    const isSecret = body.isSecret ?? false;
    const sealed = seal(this.cipher, values, isSecret);
    await this.assertWithinStorage(auth.organizationId, sealed);
    const row = await this.variables.create(auth.organizationId, {
      key: body.key,
      type: 'string',
      isSecret,
      values: sealed,
    });
    if (!row) throw new DomainError('CONFLICT', `Environment variable ${body.key} already exists`);
    this.cache.invalidate(auth.organizationId);
    return row;
  }

  async get(auth: AuthContext, key: string): Promise<EnvironmentVariableRow> {
    const row = await this.variables.findByKey(auth.organizationId, key);
    if (!row) throw new DomainError('NOT_FOUND', `Environment variable ${key} not found`);
    return row;
  }

  list(auth: AuthContext, search?: string): Promise<EnvironmentVariableRow[]> {
    return this.variables.list(auth.organizationId, search);
  }

  /** `values` replaces the value of each environment it lists (an empty value removes it); the others stay. */
  async update(auth: AuthContext, key: string, body: UpdateEnvironmentVariableDto): Promise<EnvironmentVariableRow> {
    const existing = await this.get(auth, key);
    const changes = await this.checkedValues(auth, body.values ?? []);
    const isSecret = body.isSecret ?? existing.isSecret;
    const current = existing.values.map((stored) => ({
      environmentId: stored.environmentId,
      value: openValue(this.cipher, stored.value, existing.isSecret),
    }));
    const listed = new Set((body.values ?? []).map((value) => value._environmentId));
    const values = [...current.filter((value) => !listed.has(value.environmentId)), ...changes];
    const sealed = seal(this.cipher, values, isSecret);
    await this.assertWithinStorage(auth.organizationId, sealed, existing.id);
    const row = await this.variables.update(auth.organizationId, existing.id, {
      ...(body.key ? { key: body.key } : {}),
      isSecret,
      values: sealed,
    });
    if (row === 'conflict') throw new DomainError('CONFLICT', `Environment variable ${body.key} already exists`);
    if (!row) throw new DomainError('NOT_FOUND', `Environment variable ${key} not found`);
    this.cache.invalidate(auth.organizationId);
    return row;
  }

  async delete(auth: AuthContext, key: string): Promise<void> {
    if (!(await this.variables.delete(auth.organizationId, key)))
      throw new DomainError('NOT_FOUND', `Environment variable ${key} not found`);
    this.cache.invalidate(auth.organizationId);
  }

  /** The workflows of the caller's environment whose steps read `env.KEY`. */
  async usage(auth: AuthContext, key: string): Promise<{ workflowId: string; name: string }[]> {
    const row = await this.get(auth, key);
    return this.variables.workflowsUsing(auth.environmentId, row.key);
  }

  /** 422 when these values would take the organization's stored values past MAX_ORGANIZATION_VALUE_BYTES. */
  private async assertWithinStorage(organizationId: string, values: StoredVariableValue[], replacing?: string) {
    const bytes =
      (await this.variables.storedValueBytes(organizationId, replacing)) + Buffer.byteLength(JSON.stringify(values));
    if (bytes > MAX_ORGANIZATION_VALUE_BYTES)
      throw DomainError.validation(
        'values',
        `The organization's environment variable values would take ${bytes} bytes, more than the ${MAX_ORGANIZATION_VALUE_BYTES} allowed`,
      );
  }

  /**
   * 422 for a value over 64 KB, an environment listed twice, or one that is not the organization's
   * (another organization's environment reads as unknown, never as someone else's). Empty values are dropped.
   */
  private async checkedValues(
    auth: AuthContext,
    values: EnvironmentVariableValueDto[],
  ): Promise<StoredVariableValue[]> {
    const errors: FieldErrors = {};
    const seen = new Set<string>();
    for (const [index, { _environmentId: environmentId, value }] of values.entries()) {
      if (Buffer.byteLength(value) > MAX_VALUE_BYTES)
        errors[`values[${index}].value`] = { messages: [`value must be at most ${MAX_VALUE_BYTES} bytes`] };
      if (seen.has(environmentId))
        errors[`values[${index}]._environmentId`] = {
          messages: ['_environmentId is listed twice'],
          value: environmentId,
        };
      seen.add(environmentId);
    }
    const owners = await Promise.all(
      [...seen].map(
        async (id) => [id, isId(id) ? await this.environments.findEnvironmentById(id) : undefined] as const,
      ),
    );
    const unknown = new Set(owners.filter(([, env]) => env?.organizationId !== auth.organizationId).map(([id]) => id));
    for (const [index, { _environmentId: environmentId }] of values.entries())
      if (unknown.has(environmentId))
        errors[`values[${index}]._environmentId`] = {
          messages: ['_environmentId is not an environment of this organization'],
          value: environmentId,
        };
    const [first] = Object.values(errors);
    if (first) throw new DomainError('VALIDATION_FAILED', first.messages[0], errors);
    return values
      .filter(({ value }) => value !== '')
      .map(({ _environmentId: environmentId, value }) => ({ environmentId, value }));
  }
}

function seal(cipher: CredentialsCipher, values: StoredVariableValue[], isSecret: boolean): StoredVariableValue[] {
  return values.map(({ environmentId, value }) => ({ environmentId, value: sealValue(cipher, value, isSecret) }));
}
