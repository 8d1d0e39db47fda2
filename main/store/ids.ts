import { randomBytes } from 'node:crypto';

export type IdPrefix = 'key' | 'rnd' | 'brand' | 'upl' | 'bat' | 'font';

/** A random, URL-safe id such as `rnd_3q2Vt0mXk9bF1cYe` (96 random bits: unguessable, no clashes). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

/** A workspace template id such as `wtpl_4f0c9a1e…`: lowercase, as template ids must be (80 random bits). */
export function newWorkspaceTemplateId(): string {
  return `wtpl_${randomBytes(10).toString('hex')}`;
}
