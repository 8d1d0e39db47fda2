import { useEffect, useRef } from 'react';

/** How long a screen may take to draw its heading (it may wait for data) before main takes focus. */
const WAIT_MS = 1500;

/**
 * After a route change, focus goes to the new screen's heading (or, if it has none yet, to
 * main) instead of being left on the link or button that is gone, which drops it to <body>: a
 * screen reader then reads where the user is, and Tab goes on from the new screen's top.
 * The first screen is left alone, as a page load is.
 */
export function useFocusOnNavigate(routeKey: string): void {
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const started = performance.now();
    let frame = 0;
    const tryFocus = () => {
      const main = document.getElementById('main');
      const heading = main?.querySelector<HTMLElement>('h1');
      if (heading || performance.now() - started > WAIT_MS) {
        const target = heading ?? main;
        if (!target) return;
        // Something on the new screen already took focus on purpose (an autofocus field).
        const active = document.activeElement;
        if (active && active !== document.body && main?.contains(active)) return;
        if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
        target.focus({ preventScroll: true });
        return;
      }
      frame = requestAnimationFrame(tryFocus);
    };
    frame = requestAnimationFrame(tryFocus);
    return () => cancelAnimationFrame(frame);
  }, [routeKey]);
}
