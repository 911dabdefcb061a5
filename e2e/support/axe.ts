import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Rules axe-core marks experimental (off by default) that every check runs as well:
 * `label-content-name-mismatch` is WCAG 2.5.3 (label in name), a control's accessible name
 * containing the text it shows.
 */
const ExtraRules = ['label-content-name-mismatch'];

/**
 * What axe-core finds of serious or critical impact on the page, one line per rule with the
 * elements concerned. Checked once the app has started and every finite animation has ended:
 * colours measured half-way through a dialog's entrance are not the ones a person sees.
 */
export async function seriousViolations(page: Page, scope: { include?: string; exclude?: string } = {}): Promise<string[]> {
  await page.locator('#loading').waitFor({ state: 'detached' });
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
  );
  // Only violations are read: asking for nothing else spares axe collecting every passing node.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'], rules: Object.fromEntries(ExtraRules.map((rule) => [rule, { enabled: true }])) });
  if (scope.include) builder.include(scope.include);
  if (scope.exclude) builder.exclude(scope.exclude);
  const results = await builder.analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}
