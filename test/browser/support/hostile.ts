// Text that would run script if any element rendered it as HTML. Tests put it everywhere a value is shown
// and then check that `window.__pwned` was never set.
export const HOSTILE = '<img src=x onerror="window.__pwned = true"><script>window.__pwned = true</script></style><a href="javascript:window.__pwned=true">x</a>';

declare global {
  interface Window {
    __pwned?: boolean;
  }
}

/** Waits a little for any injected handler (an image error fires asynchronously) and checks none ran. */
export async function expectNothingRan(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  if (window.__pwned) throw new Error('hostile text was rendered as HTML and ran');
}
