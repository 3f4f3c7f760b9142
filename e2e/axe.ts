import AxeBuilder from '@axe-core/playwright';
import type { Page, TestInfo } from '@playwright/test';
import { expect, screenshots, settle } from './fixtures';

/** What fails a page: axe's moderate, serious and critical findings. Minor ones are left to the full scan's report. */
export const FAILING_IMPACTS = new Set(['moderate', 'serious', 'critical']);

/** WCAG 2.1 A and AA and axe's best practices (landmarks, headings, regions): the bar every portal page is held to. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export const DESKTOP_AND_PHONE = [1440, 390] as const;

/**
 * axe as every test runs it: WCAG 2.1 A and AA and best practices, violations only. The portal has no frames, so axe
 * runs in the page itself (legacy mode) instead of sending every node's partial result to a blank page to be put
 * together, and only violations get selectors and HTML. The same violations, in half the time: on the API reference
 * (23,000 elements) 43 s a scan became 20 s, on the sign-in page 0.53 s became 0.24 s.
 */
export function axeScan(page: Page, rules: Record<string, { enabled: boolean }> = {}): AxeBuilder {
  return violationsOnly(page, rules).withTags(AXE_TAGS);
}

// Options first: `options()` replaces the whole object, so after `withTags` or `withRules` it would drop them.
function violationsOnly(page: Page, rules: Record<string, { enabled: boolean }> = {}): AxeBuilder {
  return new AxeBuilder({ page }).options({ resultTypes: ['violations'], rules }).setLegacyMode(true);
}

/**
 * The page's axe violations. `contrastExcept`: selectors the colour-contrast rule skips; every other rule still runs on
 * the whole page. For the API reference, where contrast is 14 s of a 17 s scan (a text node's background is found by
 * hit-testing 23,000 elements) and its cards (operations, events, schemas) repeat three components in the same colours.
 */
export async function axeViolations(
  page: Page,
  { rules = {}, contrastExcept = [] }: { rules?: Record<string, { enabled: boolean }>; contrastExcept?: string[] } = {},
) {
  if (contrastExcept.length === 0) return (await axeScan(page, rules).analyze()).violations;
  const rest = await axeScan(page, { ...rules, 'color-contrast': { enabled: false } }).analyze();
  const contrast = violationsOnly(page).withRules(['color-contrast']);
  for (const selector of contrastExcept) contrast.exclude(selector);
  return [...rest.violations, ...(await contrast.analyze()).violations];
}

/**
 * The API reference's cards that repeat a kind already shown: every operation after the first of its method, every
 * webhook event and schema after the first. What the contrast rule can skip there (`axeViolations`).
 */
export function referenceRepeatedCards(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const repeated: string[] = [];
    const methods = new Set<string>();
    for (const operation of document.querySelectorAll('section[data-testid="operation"]')) {
      const method = operation.id.split('-')[1];
      if (methods.has(method)) repeated.push(operation.id);
      methods.add(method);
    }
    for (const kind of ['#events > [id^="event-"]', '#schemas section[id^="schema-"]'])
      repeated.push(...[...document.querySelectorAll(kind)].slice(1).map((card) => card.id));
    return repeated.map((id) => `[id="${id}"]`);
  });
}

/**
 * The failing axe findings of the page as it is, at each width, one line each. It also runs the rule axe keeps
 * experimental that a visible label must start the accessible name (a "Revoke" button named "Sign out …" fails it).
 */
export async function axeFindings(page: Page, label: string, widths: readonly number[] = DESKTOP_AND_PHONE): Promise<string[]> {
  const found: string[] = [];
  const before = page.viewportSize();
  for (const width of widths) {
    // A page already at the width is scanned as it is: a resize may close what the test opened (a menu).
    if (page.viewportSize()?.width !== width) {
      await page.setViewportSize({ width, height: 900 });
      await settle(page);
    }
    for (const v of await axeViolations(page, { rules: { 'label-content-name-mismatch': { enabled: true } } })) {
      if (v.impact && FAILING_IMPACTS.has(v.impact))
        found.push(`${label} at ${width}: ${v.impact} ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
  }
  if (before && page.viewportSize()?.width !== before.width) await page.setViewportSize(before);
  return found;
}

/** A page checked the way a reviewer would: no failing axe finding at desktop and phone widths, then photographed at both. */
export async function lookAt(page: Page, testInfo: TestInfo, name: string) {
  expect(await axeFindings(page, name)).toEqual([]);
  await screenshots(page, testInfo, name);
}
