import { hash, randomFillSync } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/**
 * Random bytes drawn 8 KiB at a time: uuid's own generator asks the OS for 16 bytes per id, which
 * showed up as ~3% of the api's CPU under trigger load (two or three ids per request).
 */
const POOL_BYTES = 8192;
const pool = Buffer.alloc(POOL_BYTES);
let poolOffset = POOL_BYTES;

function randomBytes16(): Uint8Array {
  if (poolOffset + 16 > POOL_BYTES) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  poolOffset += 16;
  return pool.subarray(poolOffset - 16, poolOffset);
}

/** uuid's v7 monotonic rule: a later millisecond restarts the counter, the same one increments it. */
const clock = { msecs: -Infinity, seq: 0 };

/** Every id the service generates is a UUIDv7: time ordered (also within one millisecond), so inserts stay index friendly. */
export function newId(): string {
  const random = randomBytes16();
  const now = Date.now();
  if (now > clock.msecs) {
    // 31 random bits seed the counter, leaving room to count up within the millisecond.
    clock.seq = ((random[6] & 0x7f) << 24) | (random[7] << 16) | (random[8] << 8) | random[9];
    clock.msecs = now;
  } else {
    clock.seq = (clock.seq + 1) | 0;
    if (clock.seq === 0) clock.msecs++;
  }
  return uuidv7({ random, msecs: clock.msecs, seq: clock.seq });
}

/** The first 48 bits of an id, in hex: a UUIDv7's creation time in milliseconds. */
const timeHexOf = (id: string): string => id.replace(/-/g, '').slice(0, 12);

/** The creation time of a UUIDv7, in milliseconds since the epoch. */
export const idTimeOf = (id: string): number => parseInt(timeHexOf(id), 16);

/**
 * The id of the one row that belongs to `parentId` under `key` (the notification of an event for a
 * subscriber, the job of a notification's step, the message of a job's delivery): the same pair
 * always gives the same id, so a retried write finds the row by its primary key. The activity tables
 * are partitioned by id range, where a unique index on (parent, key) cannot exist. The id keeps the
 * parent's time in its first 48 bits, so a notification and everything under it share a partition.
 */
export function derivedId(parentId: string, key: string): string {
  // One-shot hashing: a third of the CPU of a Hash object per id, the same digest.
  const digest = hash('sha256', `${parentId}\0${key}`, 'hex');
  const time = timeHexOf(parentId);
  const variant = ((parseInt(digest[3], 16) & 0x3) | 0x8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${digest.slice(0, 3)}-${variant}${digest.slice(4, 7)}-${digest.slice(7, 19)}`;
}

/** Counts the ids made in another id's millisecond, so those written one after another sort that way. */
let childSequence = Math.floor(Math.random() * 2 ** 30);

/**
 * A new id in `parentId`'s millisecond (its first 48 bits): rows written under a parent at any later
 * time (an execution detail of a job that ran days after its trigger) stay in the parent's id range,
 * and so in its partition. Ids made in this process sort in the order they were made.
 */
export function idInTimeOf(parentId: string): string {
  childSequence = (childSequence + 1) >>> 0;
  return uuidv7({ random: randomBytes16(), msecs: idTimeOf(parentId), seq: childSequence });
}

/** The smallest UUIDv7 of a millisecond: the id-range bound of everything created from then on. */
export function idFloorAt(time: Date): string {
  const hex = time.getTime().toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isId(value: unknown): value is string {
  return typeof value === 'string' && UUID_PATTERN.test(value);
}
