import { useCallback, useEffect, useRef } from 'react';

/**
 * `run`, called at most once every `ms`: at once when the last call is that long ago, else once
 * when the wait is over (however many calls came in between), so the last call is never lost.
 * A call still waiting when the component goes is dropped.
 */
export function useThrottled(run: () => void, ms: number): () => void {
  const latest = useRef(run);
  latest.current = run;
  const last = useRef(-Infinity);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      timer.current = undefined;
    },
    [],
  );
  return useCallback(() => {
    if (timer.current !== undefined) return;
    const wait = last.current + ms - Date.now();
    if (wait <= 0) {
      last.current = Date.now();
      latest.current();
      return;
    }
    timer.current = setTimeout(() => {
      timer.current = undefined;
      last.current = Date.now();
      latest.current();
    }, wait);
  }, [ms]);
}
