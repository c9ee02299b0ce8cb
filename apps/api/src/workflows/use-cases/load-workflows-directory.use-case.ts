import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { parse as parseYaml } from 'yaml';
import { slugify, WorkflowWriter } from '#application';
import { AppConfig, LOGGER } from '#common';
import { EnvironmentRepository } from '#dal';
import { validateWorkflowDefinition } from '../dto/validate-definition.js';
import type { WorkflowDefinition } from '../dto/workflow.definition.js';

const EXTENSIONS = new Set(['.json', '.yaml', '.yml']);
const WORKFLOWS_DIR_ENVIRONMENT = 'Development';

class WorkflowFileError extends Error {}

/**
 * WORKFLOWS_DIR: workflows kept in git, upserted into the Development environment at boot. Every file
 * is read and validated before anything is written, so one bad file leaves the database untouched and
 * stops the boot with the file name and the field.
 */
@Injectable()
export class LoadWorkflowsDirectoryUseCase {
  constructor(
    private readonly config: AppConfig,
    private readonly environments: EnvironmentRepository,
    private readonly writer: WorkflowWriter,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(): Promise<number> {
    const directory = this.config.workflowsDir;
    if (!directory) return 0;
    const definitions = await this.readDirectory(directory);
    const environment = await this.environments.findEnvironmentByName(WORKFLOWS_DIR_ENVIRONMENT);
    if (!environment)
      throw new WorkflowFileError(`WORKFLOWS_DIR: no ${WORKFLOWS_DIR_ENVIRONMENT} environment to load workflows into`);
    const scope = { environmentId: environment.id, organizationId: environment.organizationId };
    for (const { definition } of definitions) await this.writer.upsert(scope, { ...definition, origin: 'external' });
    this.logger.info({ directory, count: definitions.length }, 'workflows loaded from WORKFLOWS_DIR');
    return definitions.length;
  }

  private async readDirectory(directory: string): Promise<{ file: string; definition: WorkflowDefinition }[]> {
    let names: string[];
    try {
      names = (await readdir(directory)).filter((name) => EXTENSIONS.has(extname(name).toLowerCase())).sort();
    } catch (error) {
      throw new WorkflowFileError(`WORKFLOWS_DIR ${directory} cannot be read: ${(error as Error).message}`);
    }
    const loaded: { file: string; definition: WorkflowDefinition }[] = [];
    const owners = new Map<string, string>();
    for (const file of names) {
      const definition = this.validate(file, await this.parse(join(directory, file), file));
      const identifier = definition.identifier ?? slugify(definition.name);
      if (!identifier)
        throw new WorkflowFileError(`${file}: identifier: required when the name has no letters or digits`);
      const owner = owners.get(identifier);
      if (owner) throw new WorkflowFileError(`${file}: identifier: "${identifier}" is already defined by ${owner}`);
      owners.set(identifier, file);
      loaded.push({ file, definition });
    }
    return loaded;
  }

  private async parse(path: string, file: string): Promise<unknown> {
    const text = await readFile(path, 'utf8');
    try {
      return extname(file).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text);
    } catch (error) {
      throw new WorkflowFileError(
        `${file}: not valid ${extname(file).slice(1).toUpperCase()}: ${(error as Error).message}`,
      );
    }
  }

  private validate(file: string, input: unknown): WorkflowDefinition {
    const { definition, errors } = validateWorkflowDefinition(input);
    if (!definition) throw new WorkflowFileError(`${file}: ${errors.join('; ')}`);
    const templateErrors = Object.entries(this.writer.templateErrors(definition.steps));
    if (templateErrors.length > 0)
      throw new WorkflowFileError(
        `${file}: ${templateErrors.map(([path, { messages }]) => `${path}: ${messages.join('; ')}`).join('; ')}`,
      );
    return definition;
  }
}
