import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client';
import { isApiError } from '../../api/http';
import type { DrawnBox } from '../../../shared/drawn-boxes';
import type { Ratio, Template } from '../../api/types';
import { useEditorStore } from './editor-store';

/** Quiet time after an edit before the preview is asked for. */
export const PREVIEW_DEBOUNCE_MS = 120;
/** During a long drag the preview still follows, at least this often (one render at a time). */
const PREVIEW_MAX_WAIT_MS = 240;
/** The engine renders full size and scales down; this is plenty for the stage. */
const PREVIEW_MAX_WIDTH = 960;

export interface DraftPreview {
  url: string | null;
  /** The draft revision the shown image was rendered from. */
  revision: number;
  /** The page (from 0) the shown image is of. */
  page: number;
  busy: boolean;
  error: unknown;
  count: number;
  /** Where the engine drew each layer of the shown image (a stack's children as laid out). */
  boxes: DrawnBox[];
  /** The draft and size the shown image was rendered from, to place those boxes in the current one. */
  rendered: { template: Template; ratio: Ratio } | null;
}

/**
 * The engine's render of the current draft, and only that: debounced, never more than one
 * request in flight, and the latest draft wins (edits made meanwhile render next, together).
 * A draft the server refuses (422) keeps the last good image and reports the problems.
 */
export function useDraftPreview(): DraftPreview {
  const [state, setState] = useState<DraftPreview>({
    url: null,
    revision: -1,
    page: 0,
    busy: false,
    error: null,
    count: 0,
    boxes: [],
    rendered: null,
  });
  const inFlight = useRef(false);
  const urlRef = useRef<string | null>(null);
  const mounted = useRef(true);
  /** `revision|ratio|page` of the last request sent, so an unchanged draft is not rendered twice. */
  const sentKey = useRef<string | null>(null);

  useEffect(() => {
    mounted.current = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let waitingSince: number | null = null;

    const keyOf = () => {
      const s = useEditorStore.getState();
      return `${s.id}|${s.revision}|${s.ratio}|${s.page}`;
    };

    const run = async () => {
      timer = null;
      waitingSince = null;
      if (inFlight.current) return; // the finally below picks up the latest
      const s = useEditorStore.getState();
      const layout = s.draft?.layouts[s.ratio];
      if (!s.id || !s.draft || !layout) return;
      const key = keyOf();
      if (key === sentKey.current) return;
      sentKey.current = key;
      inFlight.current = true;
      const { revision, page, ratio, draft } = s;
      setState((prev) => ({ ...prev, busy: true }));
      try {
        const { blob, boxes } = await api.workspace.preview(s.id, {
          template: s.draft,
          values: s.draft.sampleValues,
          target: s.ratio,
          page: page + 1,
          width: Math.min(layout.width, PREVIEW_MAX_WIDTH),
        });
        const url = URL.createObjectURL(blob);
        // Decoded before it is shown, so the stage never blinks to an empty frame.
        const image = new Image();
        image.src = url;
        await image.decode().catch(() => {});
        if (!mounted.current) {
          URL.revokeObjectURL(url);
          return;
        }
        const old = urlRef.current;
        urlRef.current = url;
        if (old) setTimeout(() => URL.revokeObjectURL(old), 1000);
        if (useEditorStore.getState().problems.length > 0)
          useEditorStore.getState().setProblems([]);
        setState((prev) => ({
          ...prev,
          url,
          revision,
          page,
          error: null,
          count: prev.count + 1,
          boxes,
          rendered: { template: draft, ratio },
        }));
      } catch (error) {
        if (!mounted.current) return;
        if (isApiError(error) && error.problems.length > 0)
          useEditorStore.getState().setProblems(error.problems);
        setState((prev) => ({ ...prev, error }));
      } finally {
        inFlight.current = false;
        if (mounted.current) {
          if (keyOf() !== sentKey.current) void run();
          else setState((prev) => ({ ...prev, busy: false }));
        }
      }
    };

    const schedule = () => {
      const now = performance.now();
      waitingSince ??= now;
      if (timer) clearTimeout(timer);
      const waited = now - waitingSince;
      timer = setTimeout(
        () => void run(),
        Math.max(0, Math.min(PREVIEW_DEBOUNCE_MS, PREVIEW_MAX_WAIT_MS - waited)),
      );
    };

    schedule();
    const unsubscribe = useEditorStore.subscribe((s, prev) => {
      if (s.settled !== prev.settled) {
        // The drag is over: no reason to wait for more changes.
        if (timer) clearTimeout(timer);
        void run();
      } else if (
        s.revision !== prev.revision ||
        s.ratio !== prev.ratio ||
        s.page !== prev.page ||
        s.id !== prev.id
      )
        schedule();
    });
    return () => {
      mounted.current = false;
      unsubscribe();
      if (timer) clearTimeout(timer);
      if (urlRef.current) URL.revokeObjectURL(urlRef.current);
      urlRef.current = null;
    };
  }, []);

  return state;
}
