import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Page } from 'playwright-core';

/**
 * axe-core in the page under test. Injected through the debugging protocol, not a script tag:
 * the UI's Content-Security-Policy refuses inline scripts, as it should.
 */
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Serious and critical WCAG 2.x A/AA violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<AxeFinding[]> {
  // Contrast is measured as finally drawn: a toast or dialog still fading in reads as faint text.
  await page.evaluate(`Promise.all(
    document.getAnimations()
      .filter((a) => a.effect?.getTiming().iterations !== Infinity)
      .map((a) => a.finished.catch(() => undefined)),
  )`);
  const injected = await page.evaluate<boolean>(`typeof window.axe !== 'undefined'`);
  if (!injected) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate<AxeFinding[]>(`(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + ' :: ' + (n.failureSummary || '').split('\\n').slice(0, 2).join(' ')),
      }));
  })()`);
  return found;
}
