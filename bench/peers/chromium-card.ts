import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { referenceCardHtml, type ReferenceCard } from './reference-card.js';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The reference card as a Playwright element screenshot in headless Chromium. */
export class ChromiumCard {
  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    private readonly profile: string,
    private readonly card: ReferenceCard,
  ) {}

  static async open(card: ReferenceCard): Promise<ChromiumCard> {
    // Playwright gives every launch a fresh temporary profile of its own.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-bench-chromium-'));
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const page = await browser.newPage({ viewport: { width: 1080, height: 1080 } });
    await page.setContent(referenceCardHtml(card), { waitUntil: 'load' });
    // Strings: this code runs in the page, not in Node.
    await page.evaluate('document.fonts.ready');
    return new ChromiumCard(browser, page, profile, card);
  }

  /**
   * One card as an HTML-to-image service renders it: the card's page is set (text, photo and logo
   * as data URIs, fonts embedded), laid out, painted and captured as a PNG.
   */
  async render(headline: string): Promise<Buffer> {
    await this.page.setContent(referenceCardHtml({ ...this.card, headline }), {
      waitUntil: 'load',
    });
    await this.page.evaluate('document.fonts.ready');
    return this.page.locator('#card').screenshot({ type: 'png' });
  }

  async close(): Promise<void> {
    await this.browser.close();
    fs.rmSync(this.profile, { recursive: true, force: true });
  }
}
