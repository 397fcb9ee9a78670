/**
 * Copies `text` to the clipboard. Where the Clipboard API is refused (an insecure page, a sandboxed
 * frame), selects the element `fallback` gives so the user can copy it by hand, and returns false.
 */
export async function copyText(text: string, fallback: () => Promise<Element | null>): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
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
