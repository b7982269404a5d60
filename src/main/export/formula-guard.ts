/**
 * CSV formula injection guard (OWASP "CSV Injection"). A spreadsheet runs a cell that starts
 * with = + - @ (or tab / carriage return, or their full-width forms) as a formula, so text
 * that came from outside (error messages, ids, team names) is prefixed with an apostrophe,
 * which spreadsheets show as text and hide.
 *
 * Applied to text columns only: decimal and integer columns are never touched, so a loss of
 * "-1.50" stays a number the spreadsheet can sum (and the file keeps the exact string).
 */

const TRIGGERS = new Set([
  0x3d, // =
  0x2b, // +
  0x2d, // -
  0x40, // @
  0x09, // tab
  0x0d, // carriage return
  0xff1d, // full-width =
  0xff0b, // full-width +
  0xff0d, // full-width -
  0xff20, // full-width @
]);

export function needsFormulaGuard(cell: string): boolean {
  return cell.length > 0 && TRIGGERS.has(cell.charCodeAt(0));
}

export function guardFormula(cell: string): string {
  return needsFormulaGuard(cell) ? `'${cell}` : cell;
}
