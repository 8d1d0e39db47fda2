import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api } from '../../api/client';
import type { RenderRequest } from '../../api/types';
import { useAppStore } from '../../stores/app-store';
import { setBalance } from '../../api/use-account';

/** Paid previews wait for a pause in typing; free ones start at once. */
export const PAID_PREVIEW_DELAY_MS = 800;
export const FREE_PREVIEW_DELAY_MS = 0;

export interface PreviewState {
  url: string | null;
  busy: boolean;
  error: unknown;
  elapsedMs: number | null;
  /** How many previews have been shown (tests and the bench wait on it). */
  count: number;
}

/**
 * A live preview that never has more than one render in flight: edits made while a render runs
 * are coalesced, and when it returns the latest values (only) render next.
 */
export function usePreview(
  request: RenderRequest | null,
  options: {
    live: boolean;
    /** Changes that the request does not show (the saved brand). */ salt?: string;
  },
): PreviewState & { refresh: () => void; free: boolean } {
  const [state, setState] = useState<PreviewState>({
    url: null,
    busy: false,
    error: null,
    elapsedMs: null,
    count: 0,
  });
  const inFlight = useRef(false);
  const queued = useRef<{ request: RenderRequest; key: string } | null>(null);
  const lastKey = useRef<string | null>(null);
  const urlRef = useRef<string | null>(null);
  const mounted = useRef(true);
  const free = useAppStore((s) => s.previewFree);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
    };
  }, []);

  const run = useCallback(async (next: RenderRequest, key: string) => {
    if (inFlight.current) {
      queued.current = { request: next, key };
      return;
    }
    inFlight.current = true;
    setState((s) => ({ ...s, busy: true }));
    try {
      const image = await api.preview(next);
      lastKey.current = key;
      if (!mounted.current) return;
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
      urlRef.current = URL.createObjectURL(image.blob);
      if (image.creditsRemaining !== null) setBalance(image.creditsRemaining);
      const url = urlRef.current;
      setState((s) => ({
        ...s,
        url,
        error: null,
        elapsedMs: image.elapsedMs,
        count: s.count + 1,
      }));
    } catch (error) {
      lastKey.current = null;
      if (mounted.current) setState((s) => ({ ...s, error }));
    } finally {
      inFlight.current = false;
      const pending = queued.current;
      queued.current = null;
      if (pending && pending.key !== lastKey.current) void run(pending.request, pending.key);
      else if (mounted.current) setState((s) => ({ ...s, busy: false }));
    }
  }, []);

  const salt = options.salt ?? '';
  const key = useMemo(
    () => (request ? `${JSON.stringify(request)}|${salt}` : null),
    [request, salt],
  );

  useEffect(() => {
    if (!options.live || !request || key === null || key === lastKey.current) return;
    const delay = free ? FREE_PREVIEW_DELAY_MS : PAID_PREVIEW_DELAY_MS;
    if (delay === 0) {
      void run(request, key);
      return;
    }
    const timer = setTimeout(() => void run(request, key), delay);
    return () => clearTimeout(timer);
    // `key` stands for the request's content, so `request` itself is not a dependency.
  }, [key, options.live, free, run]);

  const refresh = useCallback(() => {
    if (request && key !== null) void run(request, key);
  }, [request, key, run]);

  return { ...state, refresh, free };
}
