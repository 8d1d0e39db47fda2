import { AppError } from '../../shared/errors.js';
import { assertFolderPrefix } from './object-key.js';
import type { ObjectHead, ObjectStore } from './object-store.js';
import { MAX_LIST_LIMIT } from './object-store.js';

/** sizes() is asked about one folder: a key elsewhere is a caller's mistake, said as such. */
export function assertKeysInFolder(folder: string, keys: readonly string[]): void {
  assertFolderPrefix(folder);
  const outside = keys.find((key) => !key.startsWith(folder));
  if (outside !== undefined) {
    throw new AppError(
      'validation-failed',
      `The key ${outside} does not lie under ${folder}; ask for its size with its own folder.`,
    );
  }
}

/** HEADs in flight at once when sizing keys one by one. */
const HEADS_AT_ONCE = 32;

/** The size of each key by HEAD, or null for one that holds nothing; a few at a time. */
export async function headSizes(
  head: (key: string) => Promise<ObjectHead | null>,
  keys: readonly string[],
): Promise<(number | null)[]> {
  const sizes = new Array<number | null>(keys.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const index = next++;
      sizes[index] = (await head(keys[index]!))?.size ?? null;
    }
  };
  await Promise.all(Array.from({ length: Math.min(HEADS_AT_ONCE, keys.length) }, worker));
  return sizes;
}

/**
 * The size of each key under `folder`, read from listings of that folder: one request per page of
 * keys instead of one per key. Keys the listing did not show are asked one by one, so a store
 * whose listings lag behind its writes never reports a written object as missing, and a few keys
 * of a big folder do not read all of it: listing stops after about twice the pages the keys
 * would fill.
 */
export async function listedSizes(
  store: Pick<ObjectStore, 'list' | 'head'>,
  folder: string,
  keys: readonly string[],
  pageSize = MAX_LIST_LIMIT,
): Promise<(number | null)[]> {
  assertKeysInFolder(folder, keys);
  const sizes = new Array<number | null>(keys.length).fill(null);
  const wanted = new Map<string, number[]>();
  keys.forEach((key, index) => {
    const indexes = wanted.get(key);
    if (indexes) indexes.push(index);
    else wanted.set(key, [index]);
  });
  let unseen = wanted.size;
  const pageBudget = 2 * Math.ceil(wanted.size / pageSize) + 1;
  let after: string | undefined;
  for (let page = 0; unseen > 0 && page < pageBudget; page += 1) {
    const listing = await store.list(folder, { limit: pageSize, ...(after ? { after } : {}) });
    for (const entry of listing.entries) {
      const indexes = wanted.get(entry.key);
      if (!indexes) continue;
      for (const index of indexes) sizes[index] = entry.size;
      wanted.delete(entry.key);
      unseen -= 1;
    }
    if (listing.next === null) break;
    after = listing.next;
  }
  const rest = [...wanted.keys()];
  const restSizes = await headSizes((key) => store.head(key), rest);
  rest.forEach((key, i) => {
    for (const index of wanted.get(key)!) sizes[index] = restSizes[i] ?? null;
  });
  return sizes;
}
