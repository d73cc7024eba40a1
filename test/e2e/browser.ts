/**
 * What every browser test shares: Debian's Chromium and when to skip without it, a free port for
 * the app, screenshots, axe (WCAG 2.1 A/AA) and keyboard steps. Elements are found by role and
 * accessible name in the tests themselves.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { vi } from 'vitest';

// A browser flow spans many page loads, each waiting on the app on a busy 2-core machine: every
// file that drives Chromium gets minutes, not the suite's 30 s (a test's own timeout still wins).
vi.setConfig({ testTimeout: 150_000, hookTimeout: 240_000 });

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/** Without Chromium a browser test is skipped, unless CI=true: then it fails. */
export const skip = !hasChromium && process.env.CI !== 'true';
/** Screenshots (ignored by git): look at them before calling a screen done. */
export const SHOTS = 'test/e2e/.screenshots';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** The page's WCAG 2.1 A and AA violations, one line each (empty when clean). */
export async function axe(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** What the focused element is, for keyboard steps: its name attribute or its text. */
export const focused = (page: Page) =>
  page.evaluate(
    'document.activeElement ? (document.activeElement.getAttribute("name") || document.activeElement.textContent || "").trim() : ""',
  ) as Promise<string>;

/** `tabTo(page, matches)`: presses Tab until `read` of the focused element matches, at most `max` times. */
export const tabber =
  (max: number, read: (page: Page) => Promise<string> = focused) =>
  async (
    page: Page,
    matches: (text: string) => boolean,
    limit = max,
    /** Called on every element passed on the way (not the one matched). */
    passing?: () => Promise<void>,
  ): Promise<void> => {
    for (let i = 0; i < limit; i++) {
      await page.keyboard.press('Tab');
      if (matches(await read(page))) return;
      await passing?.();
    }
    throw new Error('the keyboard did not reach the element');
  };

/**
 * Whether the focused element is visible where it is (not under a sticky bar or a dialog's
 * backdrop): the element at the centre of its box is it or inside it. WCAG 2.4.11 (focus not
 * obscured) as a check for keyboard steps.
 */
export const focusVisibleInViewport = (page: Page) =>
  page.evaluate(`(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return true;
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (y < 0 || y > innerHeight) return false;
    const top = document.elementFromPoint(x, y);
    return top === el || el.contains(top) || (top !== null && top.contains(el) && top.tagName === 'LABEL');
  })()`) as Promise<boolean>;
