import { Inject, Injectable } from '@nestjs/common';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../database/database.js';
import { DATABASE } from '../database/database.tokens.js';
import { apiProcesses } from '../schema/index.js';

/** The api processes' heartbeats (not tenant data: one row per running process). */
@Injectable()
export class ApiProcessRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Records the process's heartbeat (the database's clock, so the processes' clocks need not agree)
   * and drops the rows of processes silent for longer than `staleAfterMs`: the presence sweep treats
   * a missing row as a dead process, and a crashed process would otherwise leave its row forever.
   */
  async heartbeat(processId: string, staleAfterMs: number): Promise<void> {
    await this.db.execute(sql`
      WITH gone AS (
        DELETE FROM api_processes
        WHERE id <> ${processId} AND heartbeat_at < now() - make_interval(secs => ${staleAfterMs / 1000})
      )
      INSERT INTO api_processes (id, heartbeat_at) VALUES (${processId}, now())
      ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at`);
  }

  async remove(processId: string): Promise<void> {
    await this.db.delete(apiProcesses).where(eq(apiProcesses.id, processId));
  }
}
