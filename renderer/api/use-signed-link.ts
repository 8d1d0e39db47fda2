import { useEffect, useState } from 'react';
import { cachedLink, signedLink } from './session';

/**
 * A signed link to `path` for an <img> (the core answers headerless requests only with one);
 * undefined while it is being signed (a few microseconds, once an hour per path) or when `path`
 * is null.
 */
export function useSignedLink(path: string | null): string | undefined {
  const [link, setLink] = useState<{ path: string; url: string } | null>(() => {
    const url = path === null ? undefined : cachedLink(path);
    return path !== null && url ? { path, url } : null;
  });
  useEffect(() => {
    if (path === null) return;
    let live = true;
    void signedLink(path).then((url) => {
      if (live) setLink({ path, url });
    });
    return () => {
      live = false;
    };
  }, [path]);
  // A link for the previous path is never shown for a new one.
  return path !== null && link?.path === path ? link.url : undefined;
}
