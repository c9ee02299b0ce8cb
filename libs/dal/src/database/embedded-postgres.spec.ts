import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import pg from 'pg';
import { EmbeddedPostgres } from './embedded-postgres.js';

/** A protocol 3.0 StartupMessage for `user` on database postgres. */
function startupMessage(user: string): Buffer {
  const params = Buffer.from(`user\0${user}\0database\0postgres\0\0`);
  const header = Buffer.alloc(8);
  header.writeInt32BE(8 + params.length, 0);
  header.writeInt32BE(196608, 4);
  return Buffer.concat([header, params]);
}

/** A simple-protocol Query message. */
function queryMessage(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`);
  const header = Buffer.alloc(5);
  header.write('Q', 0);
  header.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([header, text]);
}

/** Sends raw bytes, returns everything the server answers until it closes or goes quiet. */
async function rawExchange(port: number, ...messages: Buffer[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let quiet: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(quiet);
      socket.destroy();
      resolve(Buffer.concat(chunks));
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      clearTimeout(quiet);
      quiet = setTimeout(finish, 300);
    });
    socket.on('close', finish);
    socket.on('error', reject);
    socket.on('connect', () => {
      for (const message of messages) socket.write(message);
      quiet = setTimeout(finish, 1_000);
    });
  });
}

/** The authentication request codes (`R` messages) and error codes (`E` messages) of an answer. */
function describeAnswer(answer: Buffer): { auth: number[]; errors: string[]; rows: number } {
  const result = { auth: [] as number[], errors: [] as string[], rows: 0 };
  let offset = 0;
  while (offset + 5 <= answer.length) {
    const type = String.fromCharCode(answer[offset]);
    const length = answer.readInt32BE(offset + 1);
    const body = answer.subarray(offset + 5, offset + 1 + length);
    if (type === 'R') result.auth.push(body.readInt32BE(0));
    if (type === 'E') result.errors.push(/C([0-9A-Z]{5})\0/.exec(body.toString('latin1'))?.[1] ?? '?');
    if (type === 'D') result.rows += 1;
    offset += 1 + length;
  }
  return result;
}

describe('embedded PostgreSQL login', () => {
  let embedded: EmbeddedPostgres;
  let url: URL;
  beforeAll(async () => {
    embedded = await EmbeddedPostgres.start({ password: 'a-password-of-the-test-0001' });
    url = new URL(embedded.connectionString);
    const client = new pg.Client({ connectionString: embedded.connectionString });
    await client.connect();
    await client.query("CREATE TABLE secrets (value text); INSERT INTO secrets VALUES ('the secret')");
    await client.end();
  });
  afterAll(async () => {
    await embedded?.stop();
  });

  const tryLogin = async (password: string | undefined, user = 'postgres') => {
    const client = new pg.Client({
      host: '127.0.0.1',
      port: Number(url.port),
      user,
      database: 'postgres',
      password,
      connectionTimeoutMillis: 5_000,
    });
    try {
      await client.connect();
      return (await client.query<{ value: string }>('SELECT value FROM secrets')).rows[0]?.value;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  it('listens on 127.0.0.1 only, with the generated password in its connection string', () => {
    expect(url.hostname).toBe('127.0.0.1');
    expect(decodeURIComponent(url.password)).toBe('a-password-of-the-test-0001');
    expect(embedded.host).toBe('127.0.0.1');
    expect(embedded.port).toBe(Number(url.port));
  });

  it('lets in the password, under any user name', async () => {
    expect(await tryLogin('a-password-of-the-test-0001')).toBe('the secret');
    expect(await tryLogin('a-password-of-the-test-0001', 'someone')).toBe('the secret');
  });

  it('refuses a wrong or missing password with 28P01, as PostgreSQL does', async () => {
    await expect(tryLogin('wrong')).rejects.toMatchObject({ code: '28P01' });
    await expect(tryLogin('a-password-of-the-test-0002')).rejects.toMatchObject({ code: '28P01' });
    await expect(tryLogin('')).rejects.toThrow();
    await expect(tryLogin(undefined)).rejects.toThrow();
  });

  it('answers a startup message with a SCRAM-SHA-256 request; a query sent instead of the exchange gets no rows', async () => {
    const answer = describeAnswer(
      await rawExchange(embedded.port, startupMessage('postgres'), queryMessage('SELECT value FROM secrets')),
    );
    expect(answer.auth).toEqual([10]); // AuthenticationSASL, never AuthenticationOk (0)
    expect(answer.errors).toEqual(['08P01']); // protocol violation, as PostgreSQL answers it
    expect(answer.rows).toBe(0);
  });

  it('an SSLRequest is declined with N, then the login goes on (psql, libpq)', async () => {
    const ssl = Buffer.alloc(8);
    ssl.writeInt32BE(8, 0);
    ssl.writeInt32BE(80877103, 4);
    const answer = await rawExchange(embedded.port, ssl, startupMessage('postgres'));
    expect(String.fromCharCode(answer[0])).toBe('N');
    expect(describeAnswer(answer.subarray(1)).auth).toEqual([10]);
  });

  it('many pooled connections work as before', async () => {
    const pool = new pg.Pool({ connectionString: embedded.connectionString, max: 10 });
    try {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => pool.query<{ n: number }>('SELECT $1::int AS n', [i])),
      );
      expect(results.map((result) => result.rows[0].n)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query("INSERT INTO secrets VALUES ('in a transaction')");
        await client.query('ROLLBACK');
      } finally {
        client.release();
      }
      expect((await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM secrets')).rows[0].n).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
