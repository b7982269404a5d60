/**
 * What the screen reader hears without looking: the page's two live regions (polite for fills,
 * assertive for knockouts) read their text from here.
 */
export class Announcer {
  /** The polite region's text: fills and other news that can wait. */
  polite = $state('');
  /** The assertive region's text: knockouts, read out at once. */
  assertive = $state('');

  announce(text: string, urgent = false): void {
    // The same sentence twice is still news: a changed invisible character makes it re-read.
    const current = urgent ? this.assertive : this.polite;
    const next = current === text ? `${text}\u200b` : text;
    if (urgent) this.assertive = next;
    else this.polite = next;
  }
}
