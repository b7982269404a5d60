/** pino-roll 4 ships no types: the part of its API the app log uses (see its README). */
declare module 'pino-roll' {
  import type { SonicBoom, SonicBoomOpts } from 'sonic-boom';

  export interface PinoRollOptions extends Omit<SonicBoomOpts, 'dest'> {
    /** The path before `.<date>.<n><extension>`. */
    file: string | (() => string);
    /** Rotates when the file reaches it: a number of MB, or '512k', '5m', '1g'. */
    size?: number | string;
    frequency?: 'daily' | 'hourly' | number;
    extension?: string;
    symlink?: boolean;
    /** `count` files kept besides the one written; with removeOtherLogFiles, earlier runs' too. */
    limit?: { count: number; removeOtherLogFiles?: boolean };
    /** date-fns format of the date in the file name. */
    dateFormat?: string;
  }

  /** A SonicBoom whose `file` is the path it writes now. */
  export interface RollingFile extends SonicBoom {
    readonly file: string;
  }

  export default function roll(options: PinoRollOptions): Promise<RollingFile>;
}
