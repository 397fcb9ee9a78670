// "Try it" loads an operation into the console through its public attributes. A file, not an inline script: the
// pages are served with a Content-Security-Policy that allows scripts from this origin only.
import type { TryItConsole } from '../src/components/try-it-console/try-it-console.component.js';

const consoleElement = document.getElementById('console-element') as TryItConsole;
for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-method]')) {
  button.addEventListener('click', () => {
    const { method = 'GET', url = '', headers = '{}', body = '' } = button.dataset;
    consoleElement.setAttribute('method', method);
    consoleElement.setAttribute('url', url);
    consoleElement.setAttribute('headers', headers);
    consoleElement.setAttribute('body', body);
    // The same Try it again, after the reader edited the request, leaves the attributes as they were, which changes
    // nothing: load() puts the example back (and clears the last response) whichever operation it is.
    consoleElement.load({ method, url, headers: JSON.parse(headers) as Record<string, string>, body });
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
