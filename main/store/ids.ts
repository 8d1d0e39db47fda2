import { randomBytes } from 'node:crypto';

export type IdPrefix = 'key' | 'rnd' | 'brand' | 'upl' | 'bat';

/** A random, URL-safe id such as `rnd_3q2Vt0mXk9bF1cYe` (96 random bits: unguessable, no clashes). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
