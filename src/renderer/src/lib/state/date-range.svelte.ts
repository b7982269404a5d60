/**
 * A screen's date filter: the period chosen and, for custom dates, the two days. Every change
 * calls the owner back, which reads `bounds()` at that moment (so "Today" is today even after
 * midnight) and leaves the query alone while `problem` says the dates do not make a range.
 */
import {
  dateInput,
  rangeBounds,
  RANGE_WORDS,
  type Bounds,
  type RangePreset,
} from '../date-range.js';

export class DateRangeState {
  #preset = $state<RangePreset>('all');
  #from = $state('');
  #to = $state('');
  readonly #onChange: () => void;
  readonly #now: () => number;

  constructor(onChange: () => void, now: () => number = Date.now) {
    this.#onChange = onChange;
    this.#now = now;
  }

  // The period and the dates are private: each change calls the owner back. What follows from
  // them reads the time at the moment it is asked, so it is computed by getters, never cached.

  get preset(): RangePreset {
    return this.#preset;
  }
  /** Custom dates start from the period shown before, so they are one edit away. */
  set preset(value: RangePreset) {
    if (value === this.#preset) return;
    if (value === 'custom' && !this.#from && !this.#to) {
      const before = this.bounds();
      if (before?.from !== undefined) this.#from = dateInput(before.from);
      if (before?.to !== undefined) this.#to = dateInput(before.to - 1);
    }
    this.#preset = value;
    this.#onChange();
  }

  /** The first day of custom dates ("2026-03-01"), or '' for no start. */
  get from(): string {
    return this.#from;
  }
  set from(value: string) {
    this.#from = value;
    if (this.#preset === 'custom') this.#onChange();
  }

  /** The last day of custom dates, included, or '' for no end. */
  get to(): string {
    return this.#to;
  }
  set to(value: string) {
    this.#to = value;
    if (this.#preset === 'custom') this.#onChange();
  }

  /** Why the custom dates are not a range, in words; null when they are. */
  get problem(): string | null {
    const r = rangeBounds(this.#preset, this.#from, this.#to, this.#now());
    return 'problem' in r ? r.problem : null;
  }

  /** The range now; null while `problem` is set. */
  bounds(): Bounds | null {
    const r = rangeBounds(this.#preset, this.#from, this.#to, this.#now());
    return 'bounds' in r ? r.bounds : null;
  }

  /** Narrows anything at all. */
  get active(): boolean {
    const b = this.bounds();
    return b === null || b.from !== undefined || b.to !== undefined;
  }

  /** "Last 7 days", "1 Mar 2026 – 31 Mar 2026", "From 1 Mar 2026". */
  get words(): string {
    if (this.#preset !== 'custom') return RANGE_WORDS[this.#preset];
    const b = this.bounds();
    if (!b) return 'Custom dates';
    const fmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
    if (b.from !== undefined && b.to !== undefined) {
      return `${fmt.format(b.from)} – ${fmt.format(b.to - 1)}`;
    }
    if (b.from !== undefined) return `From ${fmt.format(b.from)}`;
    if (b.to !== undefined) return `Up to ${fmt.format(b.to - 1)}`;
    return RANGE_WORDS.all;
  }

  /** Back to all time, without calling the owner (it is clearing every filter at once). */
  clear(): void {
    this.#preset = 'all';
    this.#from = '';
    this.#to = '';
  }
}
