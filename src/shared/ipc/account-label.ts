/**
 * An account's label as Betdesk accepts it, checked by main (the registry) and by the account
 * form before anything is sent, in the same words. Plain TypeScript, so the renderer has it too.
 *
 * Direction controls (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C) are refused rather
 * than stripped: they reorder how the label and the text around it are shown ("Confirm removal of
 * <label>", the tray menu, the mode badge), which the OS menus cannot isolate, and removing them
 * silently would change what the user typed. Screens still isolate labels (<bdi>) so a
 * right-to-left label never reorders what is beside it.
 */

/** The most characters (UTF-16 code units, as the contract's schema counts) a label may have. */
export const ACCOUNT_LABEL_MAX = 64;

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const DIRECTION_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** What is wrong with `label` (trimmed), as a sentence; null when it is a valid label. */
export function accountLabelProblem(label: string): string | null {
  const trimmed = label.trim();
  if (trimmed === '') return 'The account needs a label.';
  if (trimmed.length > ACCOUNT_LABEL_MAX) {
    return `The label is ${trimmed.length} characters long; the most is ${ACCOUNT_LABEL_MAX}.`;
  }
  if (DIRECTION_CONTROL.test(trimmed)) {
    return 'The label contains a text-direction control character (such as U+202E), which would reorder how it is shown; type it without one.';
  }
  if (CONTROL.test(trimmed)) return 'The label must not contain control characters.';
  return null;
}
