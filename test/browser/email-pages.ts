/**
 * The page the email browser tests load messages in: Chromium serves the markup given to `load` at any
 * `http://email.test/` URL, as a fresh document each time (`setContent` reuses the document, and Chromium kept a
 * body's link colors from one content to the next), and refuses every other request: nothing is loaded.
 */
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium.js';

export class EmailPages {
  private browser: Browser | null = null;
  private current: Page | null = null;
  private next = '';
  private count = 0;

  get page(): Page {
    if (this.current === null) throw new Error('EmailPages: not open');
    return this.current;
  }

  async open(): Promise<void> {
    this.browser = await launchChromium();
    this.current = await this.browser.newPage();
    await this.current.route('**/*', (route) =>
      route.request().url().startsWith('http://email.test/')
        ? route.fulfill({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: this.next })
        : route.abort(),
    );
  }

  /** A URL no load has used yet, ending with `path`. */
  freshUrl(path = ''): string {
    return `http://email.test/${this.count++}/${path}`;
  }

  /** Loads `markup` as a new document at `url` (by default a fresh one). */
  async load(markup: string, url = this.freshUrl()): Promise<Page> {
    this.next = markup;
    await this.page.goto(url, { waitUntil: 'domcontentloaded' });
    return this.page;
  }

  async close(): Promise<void> {
    await this.browser?.close();
  }
}
