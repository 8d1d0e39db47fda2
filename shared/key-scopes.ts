/**
 * What an API key may do. Scopes are ordered: each one can do everything the ones before it can.
 * - `read`: look only: catalog, templates, brands, fonts, the account, its own batches and outputs.
 * - `render`: also render, upload and run batches; it sees and changes only what it created.
 * - `templates`: also edit workspace templates, brands and fonts.
 * - `admin`: everything, including every key's batches, uploads and outputs, keys and credits.
 */
export const KEY_SCOPES = ['read', 'render', 'templates', 'admin'] as const;

export type KeyScope = (typeof KEY_SCOPES)[number];

/** True when a key with scope `has` may use an operation that needs `needs`. */
export function scopeAllows(has: KeyScope, needs: KeyScope): boolean {
  return KEY_SCOPES.indexOf(has) >= KEY_SCOPES.indexOf(needs);
}
