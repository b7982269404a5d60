/**
 * Calendar days, weeks and months in a time zone, for the P&L chart's buckets: the bettor's
 * "today" starts at their local midnight, not at UTC's. Intl knows every zone's rules
 * (daylight saving included), so the offsets come from it rather than from a table of our own.
 */

export const DAY_MS = 86_400_000;

export type CalendarUnit = 'day' | 'week' | 'month';

/** A civil date: year, month 1–12, day 1–31. */
interface CivilDate {
  y: number;
  m: number;
  d: number;
}

/** Thrown for a zone name Intl does not know. */
export class UnknownTimeZoneError extends Error {
  constructor(readonly timeZone: string) {
    super(`"${timeZone}" is not a time zone this system knows.`);
    this.name = 'UnknownTimeZoneError';
  }
}

/** Date arithmetic in one time zone. */
export class ZonedCalendar {
  readonly #format: Intl.DateTimeFormat;

  constructor(readonly timeZone: string) {
    try {
      this.#format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new UnknownTimeZoneError(timeZone);
    }
  }

  /** The start (local midnight) of the day, week (Monday) or month holding `ms`. */
  startOf(ms: number, unit: CalendarUnit): number {
    const { y, m, d } = this.#civil(ms);
    if (unit === 'month') return this.#midnight({ y, m, d: 1 });
    if (unit === 'day') return this.#midnight({ y, m, d });
    const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay(); // 0 = Sunday
    return this.#midnight(civilPlusDays({ y, m, d }, -((weekday + 6) % 7)));
  }

  /** The start of the next day, week or month after the one starting at `start`. */
  next(start: number, unit: CalendarUnit): number {
    // Noon of the start day is safely inside it, whatever daylight saving does at midnight.
    const day = this.#civil(start + DAY_MS / 2);
    if (unit === 'month') {
      return this.#midnight(
        day.m === 12 ? { y: day.y + 1, m: 1, d: 1 } : { ...day, m: day.m + 1, d: 1 },
      );
    }
    return this.#midnight(civilPlusDays(day, unit === 'day' ? 1 : 7));
  }

  #civil(ms: number): CivilDate {
    const p = this.#parts(ms);
    return { y: p.year, m: p.month, d: p.day };
  }

  /** The zone's offset from UTC at `ms`, in ms (positive east of Greenwich). */
  #offset(ms: number): number {
    const p = this.#parts(ms);
    const wall = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    return wall - Math.floor(ms / 1000) * 1000;
  }

  /** The instant of local midnight starting `date`. */
  #midnight(date: CivilDate): number {
    const wall = Date.UTC(date.y, date.m - 1, date.d);
    const a = wall - this.#offset(wall);
    if (a + this.#offset(a) === wall) return a;
    const b = wall - this.#offset(a);
    if (b + this.#offset(b) === wall) return b;
    // The clocks skip midnight that day: the day starts where the gap ends.
    return Math.max(a, b);
  }

  #parts(ms: number): Record<'year' | 'month' | 'day' | 'hour' | 'minute' | 'second', number> {
    const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
    for (const part of this.#format.formatToParts(ms)) {
      if (part.type in out) out[part.type as keyof typeof out] = Number(part.value);
    }
    return out;
  }
}

function civilPlusDays(date: CivilDate, days: number): CivilDate {
  const t = new Date(Date.UTC(date.y, date.m - 1, date.d + days));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}
