// "Try it" loads an operation into the console through its public attributes. A file, not an inline script: the
// pages are served with a Content-Security-Policy that allows scripts from this origin only.
const consoleElement = document.getElementById('console-element')!;
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-method]')) {
  button.addEventListener('click', () => {
    consoleElement.setAttribute('method', button.dataset.method!);
    consoleElement.setAttribute('url', button.dataset.url!);
    consoleElement.setAttribute('headers', button.dataset.headers ?? '{}');
    consoleElement.setAttribute('body', button.dataset.body ?? '');
    // Scrolled to just below the sticky header (whose height depends on the width), and the URL field focused.
    // Measured each time rather than set as the page's scroll-padding: that would outlive a resize, and override
    // the stylesheet's, which keeps what Tab reaches below the header.
    const header = document.querySelector<HTMLElement>('.site-header');
    const covered = header && getComputedStyle(header).position === 'sticky' ? header.getBoundingClientRect().bottom : 0;
    const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
    window.scrollTo({ top: window.scrollY + consoleElement.getBoundingClientRect().top - covered - 8, behavior: still ? 'instant' : 'smooth' });
    consoleElement.focus({ preventScroll: true });
  });
}
