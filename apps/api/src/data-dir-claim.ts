import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file in DATA_DIR naming the process that has the embedded database open, and its port. */
export const RUNNING_SERVICE_FILE = 'running-service.json';

/** Who has DATA_DIR's database files open; `port` is absent until its database is ready (migrated). */
export interface DataDirHolder {
  pid: number;
  port?: number;
}

export class DataDirInUseError extends Error {
  constructor(dataDir: string, holder: DataDirHolder, file: string) {
    super(
      `DATA_DIR ${dataDir} is in use by another process (pid ${holder.pid}) that has its embedded database open; ` +
        `opening the same files twice would corrupt them. Stop that process or give this one its own DATA_DIR ` +
        `(if no such process runs, remove ${file}).`,
    );
  }
}

function isRunning(pid: number): boolean {
  // Our own pid in the record is an earlier life of it (a container's pid 1 after a crash).
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

function readRecord(file: string): DataDirHolder | undefined {
  try {
    const { pid, port } = JSON.parse(readFileSync(file, 'utf8')) as Partial<DataDirHolder>;
    if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return undefined;
    return { pid, port: Number.isInteger(port) ? port : undefined };
  } catch {
    return undefined;
  }
}

/** The live process holding DATA_DIR's database, if any; a record left by a dead one is ignored. */
export function findDataDirHolder(dataDir: string): DataDirHolder | undefined {
  const holder = readRecord(join(dataDir, RUNNING_SERVICE_FILE));
  return holder && isRunning(holder.pid) ? holder : undefined;
}

/**
 * This process's claim on DATA_DIR's database files, taken before they are opened: PGlite has no
 * lock of its own, and a second instance on the same files sees none of the first one's writes.
 * The record is always written whole (link / rename of a finished draft), so a reader never finds
 * it half-written and takes it for a dead one's.
 */
export class DataDirClaim {
  private constructor(
    private readonly file: string,
    private readonly draft: string,
  ) {}

  /** Throws DataDirInUseError when a live process holds the directory. */
  static take(dataDir: string): DataDirClaim {
    const file = join(dataDir, RUNNING_SERVICE_FILE);
    const claim = new DataDirClaim(file, `${file}.${process.pid}`);
    claim.writeDraft({ pid: process.pid });
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          linkSync(claim.draft, file); // fails when a record exists, unlike a rename
          return claim;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        const holder = readRecord(file);
        if (holder && isRunning(holder.pid)) throw new DataDirInUseError(dataDir, holder, file);
        rmSync(file, { force: true }); // left by a process that died without closing the database
      }
      throw new Error(`Could not claim DATA_DIR ${dataDir}: ${file} keeps reappearing`);
    } finally {
      rmSync(claim.draft, { force: true });
    }
  }

  /** Tells the CLI where the open database can be reached, once it is ready. */
  publish(port: number): void {
    this.writeDraft({ pid: process.pid, port });
    renameSync(this.draft, this.file);
  }

  release(): void {
    if (readRecord(this.file)?.pid === process.pid) rmSync(this.file, { force: true });
  }

  private writeDraft(record: DataDirHolder): void {
    rmSync(this.draft, { force: true });
    writeFileSync(this.draft, JSON.stringify(record), { mode: 0o600 });
  }
}
