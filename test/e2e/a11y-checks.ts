/**
 * The accessibility checks every e2e spec runs on a state of the page: axe-core against WCAG 2.2
 * A and AA, and our own stricter checks of target size (2.5.8) and label in name (2.5.3).
 * Moved here from accessibility.spec.ts so the guardians' spec runs the same ones.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
/** The little of the DOM the in-page checks use (the e2e project is typed without the DOM lib). */
interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}
interface El {
  tagName: string;
  id: string;
  type?: string;
  value?: string;
  textContent: string | null;
  innerText: string;
  scrollWidth: number;
  clientWidth: number;
  parentElement: El | null;
  labels?: Iterable<El> | null;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): Box;
  closest(selector: string): El | null;
  contains(other: El | null): boolean;
  querySelectorAll(selector: string): Iterable<El>;
  cloneNode(deep: boolean): El;
  remove(): void;
}
declare const document: {
  activeElement: El | null;
  querySelector(selector: string): El | null;
  querySelectorAll(selector: string): Iterable<El>;
  getElementById(id: string): El | null;
};
declare function getComputedStyle(el: El): { display: string; visibility: string };

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

/** One line per axe violation and node: rule, what it means, where. */
export async function axeProblems(page: Page, state: string): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(WCAG_22_AA)
    // Label in name (2.5.3) is an experimental rule in axe, off unless asked for.
    .options({ rules: { 'label-content-name-mismatch': { enabled: true } } })
    .analyze();
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${state}: ${v.id} (${v.impact ?? 'n/a'}) ${v.help}: ${n.target.join(' ')}`),
  );
}

/**
 * axe (WCAG 2.2 A and AA) and our own checks below, light and dark, 1024 and 1400 wide; the
 * page is left light at the width it had.
 */
export async function a11yLightAndDark(page: Page, state: string): Promise<string[]> {
  const problems: string[] = [];
  const size = page.viewportSize();
  for (const width of [1024, 1400]) {
    await page.setViewportSize({ width, height: size?.height ?? 800 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const at = `${state}, ${width} ${colorScheme}`;
      problems.push(...(await axeProblems(page, at)));
      problems.push(...(await ownProblems(page, at)));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (size) await page.setViewportSize(size);
  return problems;
}

/**
 * WCAG 2.5.8 (target size, minimum) and 2.5.3 (label in name), for every control a user can
 * reach now (inside the modal when one is open): every target but a link inside a sentence is
 * at least 24 × 24 px (the line says too whether 2.5.8's spacing would have failed it as well);
 * a name must contain the control's visible text.
 */
export async function ownProblems(page: Page, state: string): Promise<string[]> {
  const found = await page.evaluate(() => {
    const problems: string[] = [];
    const root = document.querySelector('dialog:modal') ?? document;
    const selector = [
      'button',
      'a[href]',
      'input:not([type="hidden"])',
      'select',
      'textarea',
      'summary',
      '[role="button"]',
      '[role="link"]',
      '[role="checkbox"]',
      '[role="radio"]',
      '[role="switch"]',
      '[role="tab"]',
      '[role="option"]',
    ].join(',');
    const describe = (el: El): string => {
      const name = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().slice(0, 40);
      const id = el.id ? `#${el.id}` : '';
      return `<${el.tagName.toLowerCase()}${id}> "${name}"`;
    };
    const targets = [...root.querySelectorAll(selector)].filter((el) => {
      if (el.closest('[inert], [hidden], [aria-hidden="true"]')) return false;
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden';
    });
    const rects = targets.map((el) => el.getBoundingClientRect());
    const small = rects.map((r) => r.width < 24 - 0.01 || r.height < 24 - 0.01);
    const centre = (r: Box) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });
    const circleMeetsRect = (c: { x: number; y: number }, r: Box) => {
      const dx = Math.max(r.left - c.x, 0, c.x - r.right);
      const dy = Math.max(r.top - c.y, 0, c.y - r.bottom);
      return dx * dx + dy * dy < 12 * 12;
    };
    /** What a control shows as its label: its own text, or its <label>'s for a form field. */
    const shownLabel = (el: El): string => {
      if (!['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName) || !el.labels) {
        return el.innerText ?? '';
      }
      if (el.type === 'button' || el.type === 'submit') return el.value ?? '';
      return [...el.labels]
        .map((l) => {
          const copy = l.cloneNode(true);
          for (const c of copy.querySelectorAll('select, input, textarea, button, small')) {
            c.remove();
          }
          return copy.textContent ?? '';
        })
        .join(' ');
    };
    targets.forEach((el, i) => {
      const r = rects[i]!;
      const inline =
        el.tagName === 'A' &&
        getComputedStyle(el).display === 'inline' &&
        (el.parentElement?.textContent ?? '').trim().length > (el.textContent ?? '').length;
      if (small[i] && !inline) {
        const c = centre(r);
        const crowded = rects.some((other, j) => {
          if (j === i || targets[j]!.contains(el) || el.contains(targets[j]!)) return false;
          if (circleMeetsRect(c, other)) return true;
          if (!small[j]) return false;
          const o = centre(other);
          return (o.x - c.x) ** 2 + (o.y - c.y) ** 2 < 24 * 24;
        });
        // 2.5.8 lets a small target pass on spacing; Betdesk holds every target to 24 px.
        problems.push(
          `target-size (2.5.8): ${describe(el)} is ${r.width.toFixed(1)} × ` +
            `${r.height.toFixed(1)} px${crowded ? ', with another target within 12 px' : ''}`,
        );
      }
      // A button squeezed narrower than its words (a flex row with no room) spills them out.
      if (el.tagName === 'BUTTON' && el.scrollWidth > el.clientWidth + 1) {
        problems.push(
          `text-overflow: ${describe(el)} is ${el.clientWidth} px wide for ` +
            `${el.scrollWidth} px of text`,
        );
      }
      const label = el.getAttribute('aria-label');
      const labelledBy = el.getAttribute('aria-labelledby');
      const name =
        label ??
        (labelledBy
          ? labelledBy
              .split(/\s+/)
              .map((id) => document.getElementById(id)?.textContent ?? '')
              .join(' ')
          : null);
      // Case, spacing and a trailing ellipsis or colon do not change what a user says.
      const norm = (s: string) =>
        s.replace(/[…:]+/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
      const shown = norm(shownLabel(el));
      if (name !== null && /[a-z0-9]/.test(shown) && !norm(name).includes(shown)) {
        problems.push(`label-in-name (2.5.3): ${describe(el)} shows "${shown}"`);
      }
    });
    return problems;
  });
  return found.map((p) => `${state}: ${p}`);
}

/** True when the focus is inside `dialog`. */
export async function focusInside(dialog: Locator): Promise<boolean> {
  return dialog.evaluate((d: El) => d.contains(document.activeElement));
}
