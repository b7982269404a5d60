/**
 * axe (WCAG 2.2 A and AA) on what a component test has mounted, at 1024 and 1400 px wide, in the
 * light and the dark theme: every problem as one line "1024 dark: rule help: target".
 */
import axe from 'axe-core';
import { cdp, page } from 'vitest/browser';
import '../../src/renderer/src/app.css';

export async function axeProblems(root: Element = document.body): Promise<string[]> {
  const problems: string[] = [];
  for (const width of [1024, 1400]) {
    await page.viewport(width, 768);
    for (const scheme of ['light', 'dark'] as const) {
      await cdp().send('Emulation.setEmulatedMedia', {
        features: [{ name: 'prefers-color-scheme', value: scheme }],
      });
      await new Promise((done) => requestAnimationFrame(done));
      const result = await axe.run(root, {
        runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'],
      });
      problems.push(
        ...result.violations.flatMap((v) =>
          v.nodes.map((n) => `${width} ${scheme}: ${v.id} ${v.help}: ${n.target.join(' ')}`),
        ),
      );
    }
  }
  await cdp().send('Emulation.setEmulatedMedia', {
    features: [{ name: 'prefers-color-scheme', value: 'light' }],
  });
  return problems;
}
