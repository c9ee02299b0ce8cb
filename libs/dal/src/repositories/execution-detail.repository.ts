import { Inject, Injectable } from '@nestjs/common';
import type { Database, DbExecutor } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { executionDetailIdOf, executionDetails, type NewExecutionDetailRow } from '../schema/index.js';
import { bulkInsert } from './table-sql.js';

/** The audit trail of every decision a step job takes. */
@Injectable()
export class ExecutionDetailRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async insertMany(rows: NewExecutionDetailRow[], executor: DbExecutor = this.db): Promise<void> {
    await bulkInsert(
      executor,
      executionDetails,
      rows.map((row) => ({ ...row, id: executionDetailIdOf(row.jobId) })),
    );
  }
}
