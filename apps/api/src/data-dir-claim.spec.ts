import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { DataDirClaim, DataDirInUseError, findDataDirHolder, RUNNING_SERVICE_FILE } from './data-dir-claim.js';

describe('DataDirClaim', () => {
  let dataDir: string;
  const record = () => join(dataDir, RUNNING_SERVICE_FILE);
  const writeRecord = (content: object) => writeFileSync(record(), JSON.stringify(content));
  /** The pid of a process that has exited. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ns-claim-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('records this process (0600), then its port once published, and removes the record on release', () => {
    const claim = DataDirClaim.take(dataDir);
    expect(JSON.parse(readFileSync(record(), 'utf8'))).toEqual({ pid: process.pid });
    expect(statSync(record()).mode & 0o777).toBe(0o600);
    claim.publish(5432);
    expect(JSON.parse(readFileSync(record(), 'utf8'))).toEqual({ pid: process.pid, port: 5432 });
    claim.release();
    expect(() => statSync(record())).toThrow();
  });

  it('refuses while another live process holds the directory, naming it', () => {
    writeRecord({ pid: process.ppid, port: 5432 });
    expect(() => DataDirClaim.take(dataDir)).toThrow(DataDirInUseError);
    expect(() => DataDirClaim.take(dataDir)).toThrow(`in use by another process (pid ${process.ppid})`);
    expect(findDataDirHolder(dataDir)).toEqual({ pid: process.ppid, port: 5432 });
  });

  it.each([
    ['the record of a dead process', () => ({ pid: deadPid(), port: 5432 })],
    ["the record of this pid's earlier life (a container's pid 1)", () => ({ pid: process.pid, port: 5432 })],
    ['an unreadable record', () => ({ pid: 'nobody' })],
  ])('replaces %s', (_, stale) => {
    writeRecord(stale());
    expect(findDataDirHolder(dataDir)).toBeUndefined();
    DataDirClaim.take(dataDir);
    expect(JSON.parse(readFileSync(record(), 'utf8'))).toEqual({ pid: process.pid });
  });

  it("does not remove another process's record on release", () => {
    const claim = DataDirClaim.take(dataDir);
    writeRecord({ pid: process.ppid });
    claim.release();
    expect(JSON.parse(readFileSync(record(), 'utf8'))).toEqual({ pid: process.ppid });
  });
});
