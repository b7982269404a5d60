/**
 * A modal <dialog> as an attachment: `<dialog {@attach modal}>`. showModal() makes the page
 * behind inert (no click reaches it, and App's shortcuts stand down while a `dialog:modal` is
 * open); Tab and Shift+Tab wrap inside the dialog rather than leaving it for the browser's own
 * controls; on close the focus returns to what had it before (what opened the dialog).
 */

const FOCUSABLE = [
  'button:not([disabled])',
  'a[href]',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

function focusables(dialog: HTMLDialogElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.getClientRects().length > 0,
  );
}

export function modal(dialog: HTMLDialogElement): () => void {
  const before = document.activeElement;
  const onKeydown = (e: KeyboardEvent): void => {
    if (e.key !== 'Tab') return;
    const all = focusables(dialog);
    const first = all[0];
    const last = all.at(-1);
    if (!first || !last) return;
    const at = document.activeElement;
    if (e.shiftKey && (at === first || !dialog.contains(at))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (at === last || !dialog.contains(at))) {
      e.preventDefault();
      first.focus();
    }
  };
  dialog.addEventListener('keydown', onKeydown);
  dialog.showModal();
  return () => {
    dialog.removeEventListener('keydown', onKeydown);
    dialog.close();
    if (before instanceof HTMLElement && before.isConnected) before.focus();
  };
}
