/** How long a Copy button says what copying did, in ms. */
export const COPY_FEEDBACK_TIME = 2000;
/** A Copy button's label: before copying, and for a moment after it worked or was refused. */
export const COPY_LABELS = { ready: 'Copy', copied: 'Copied', blocked: 'Copy blocked' } as const;
export type CopyState = keyof typeof COPY_LABELS;

/**
 * Copies `text` to the clipboard. Where the Clipboard API is refused or missing (an http: page has none), the
 * older copy command is tried; where that is refused too (a sandboxed frame), selects the element `fallback` gives
 * so the user can copy it by hand, and returns false.
 */
export async function copyText(text: string, fallback: () => Promise<Element | null>): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (copyCommand(text)) return true;
    const element = await fallback();
    if (element) {
      const range = document.createRange();
      range.selectNodeContents(element);
      const selection = getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
    }
    return false;
  }
}

/** `document.execCommand('copy')` with `text` as what it copies, rather than whatever is selected. */
function copyCommand(text: string): boolean {
  let written = false;
  const write = (event: ClipboardEvent) => {
    event.clipboardData?.setData('text/plain', text);
    written = event.clipboardData !== null;
    event.preventDefault();
  };
  document.addEventListener('copy', write);
  try {
    return document.execCommand('copy') && written;
  } finally {
    document.removeEventListener('copy', write);
  }
}
