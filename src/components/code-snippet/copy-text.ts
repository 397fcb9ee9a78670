/**
 * Copies `text` to the clipboard. Where the Clipboard API is refused (an insecure page, a sandboxed
 * frame), selects `fallback` so the user can copy it by hand, and returns false.
 */
export async function copyText(text: string, fallback: Element | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (fallback) {
      const range = document.createRange();
      range.selectNodeContents(fallback);
      const selection = getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
    }
    return false;
  }
}
