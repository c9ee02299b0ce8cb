import { Injectable } from '@nestjs/common';
import { LayoutCache, slugify, TemplateEngine } from '#application';
import { DomainError } from '#common';
import { LayoutRepository, type LayoutListQuery, type LayoutRow, type LayoutUser } from '#dal';
import type { AuthContext } from '../../auth/auth-context.js';
import type { CreateLayoutDto, DuplicateLayoutDto, UpdateLayoutDto } from '../dto/layout-input.dto.js';
import { checkLayoutControls, STARTING_CONTROL_VALUES } from './layout-template.js';

/** The delivery cache holds every layout of an environment in each process: their number is bounded. */
const MAX_LAYOUTS_PER_ENVIRONMENT = 100;

const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Layout CRUD; every write forgets the environment's cached layouts so the next email sees it. */
@Injectable()
export class LayoutsService {
  constructor(
    private readonly layouts: LayoutRepository,
    private readonly cache: LayoutCache,
    private readonly templates: TemplateEngine,
  ) {}

  async create(auth: AuthContext, body: CreateLayoutDto): Promise<LayoutRow> {
    await this.assertRoom(auth, 'layoutId');
    const row = await this.layouts.create(auth, {
      layoutId: body.layoutId,
      name: body.name,
      controlValues: STARTING_CONTROL_VALUES,
      isDefault: body.isDefault ?? false,
      isTranslationEnabled: body.isTranslationEnabled ?? false,
    });
    if (!row) throw new DomainError('CONFLICT', `Layout with layoutId ${body.layoutId} already exists`);
    this.cache.invalidate(auth.environmentId);
    return row;
  }

  async get(auth: AuthContext, layoutId: string): Promise<LayoutRow> {
    const row = await this.layouts.findByKey(auth.environmentId, layoutId);
    if (!row) throw new DomainError('NOT_FOUND', `Layout ${layoutId} not found`);
    return row;
  }

  list(auth: AuthContext, query: LayoutListQuery): Promise<{ rows: LayoutRow[]; total: number }> {
    return this.layouts.list(auth.environmentId, query);
  }

  async update(auth: AuthContext, layoutId: string, body: UpdateLayoutDto): Promise<LayoutRow> {
    const existing = await this.get(auth, layoutId);
    if (body.isDefault === false && existing.isDefault)
      throw DomainError.validation(
        'isDefault',
        'An environment keeps a default layout: make another layout the default instead',
        false,
      );
    if (body.controlValues) checkLayoutControls(this.templates, body.controlValues);
    const controlValues =
      body.controlValues === null
        ? STARTING_CONTROL_VALUES
        : body.controlValues?.email
          ? { ...existing.controlValues, email: plain(body.controlValues.email) }
          : undefined;
    const row = await this.layouts.update(auth.environmentId, existing.id, {
      name: body.name,
      ...(controlValues ? { controlValues } : {}),
      ...(body.isDefault ? { isDefault: true } : {}),
      // null, as an absent field, keeps the current setting (the column is NOT NULL).
      ...(body.isTranslationEnabled != null ? { isTranslationEnabled: body.isTranslationEnabled } : {}),
    });
    if (!row) throw new DomainError('NOT_FOUND', `Layout ${layoutId} not found`);
    this.cache.invalidate(auth.environmentId);
    return row;
  }

  async duplicate(auth: AuthContext, layoutId: string, body: DuplicateLayoutDto): Promise<LayoutRow> {
    const source = await this.get(auth, layoutId);
    await this.assertRoom(auth, 'name');
    const newLayoutId = body.layoutId ?? (slugify(body.name) || 'layout');
    const row = await this.layouts.create(auth, {
      layoutId: newLayoutId,
      name: body.name,
      controlValues: source.controlValues,
      isDefault: false,
      isTranslationEnabled: body.isTranslationEnabled ?? source.isTranslationEnabled,
    });
    if (!row) throw new DomainError('CONFLICT', `Layout with layoutId ${newLayoutId} already exists`);
    this.cache.invalidate(auth.environmentId);
    return row;
  }

  private async assertRoom(auth: AuthContext, field: string): Promise<void> {
    if ((await this.layouts.countLive(auth.environmentId)) >= MAX_LAYOUTS_PER_ENVIRONMENT)
      throw DomainError.validation(
        field,
        `An environment holds at most ${MAX_LAYOUTS_PER_ENVIRONMENT} layouts: delete one first`,
      );
  }

  /** 409 naming the workflows while any uses the layout (the default one: every email step that names none). */
  async delete(auth: AuthContext, layoutId: string): Promise<void> {
    const layout = await this.get(auth, layoutId);
    const { deleted, users } = await this.layouts.deleteUnlessUsed(auth.environmentId, layout);
    if (users.length > 0) {
      throw new DomainError(
        'CONFLICT',
        `Layout ${layoutId} is used by ${users.length} workflow(s): ${names(users)}. Remove it from them first.`,
      );
    }
    if (!deleted) throw new DomainError('NOT_FOUND', `Layout ${layoutId} not found`);
    this.cache.invalidate(auth.environmentId);
  }

  async usage(auth: AuthContext, layoutId: string): Promise<LayoutUser[]> {
    return this.layouts.users(auth.environmentId, await this.get(auth, layoutId));
  }
}

const MAX_NAMED = 20;

function names(users: LayoutUser[]): string {
  const listed = users.slice(0, MAX_NAMED).map((user) => user.workflowId);
  return users.length > MAX_NAMED ? `${listed.join(', ')} and ${users.length - MAX_NAMED} more` : listed.join(', ');
}
