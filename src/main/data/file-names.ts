/**
 * The files of a data folder (docs/data.md, "One folder"), named apart from the code that opens
 * them so the start's early read (root/early.ts) finds the store without loading that code.
 */

/** The local store. */
export const STORE_FILE = 'betdesk.sqlite';
/** The paper exchange's own database (practice/paper.ts). */
export const PAPER_FILE = 'paper-exchange.sqlite';
