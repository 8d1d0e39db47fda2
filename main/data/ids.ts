import { randomBytes, randomFillSync } from 'node:crypto';

export type IdPrefix = 'key' | 'rnd' | 'brand' | 'upl' | 'bat' | 'font' | 'whk' | 'whd';

const ID_BYTES = 12;
/**
 * Random bytes drawn 4 KiB at a time, as Node does for randomUUID: one call into the system's
 * generator per ~340 ids instead of one per id (every render takes an id on the API thread).
 */
const pool = Buffer.alloc(ID_BYTES * 341);
let poolOffset = pool.length;

/** A random, URL-safe id such as `rnd_3q2Vt0mXk9bF1cYe` (96 random bits: unguessable, no clashes). */
export function newId(prefix: IdPrefix): string {
  if (poolOffset + ID_BYTES > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const id = pool.toString('base64url', poolOffset, poolOffset + ID_BYTES);
  poolOffset += ID_BYTES;
  return `${prefix}_${id}`;
}

/** A workspace template id such as `wtpl_4f0c9a1e…`: lowercase, as template ids must be (80 random bits). */
export function newWorkspaceTemplateId(): string {
  return `wtpl_${randomBytes(10).toString('hex')}`;
}

/** A fresh `rnd_…` id, for callers that need the id before the row is written (file names). */
export function newRenderId(): string {
  return newId('rnd');
}
