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
    const header = document.querySelector<HTMLElement>('.site-header')!;
    const covered = getComputedStyle(header).position === 'sticky' ? header.offsetHeight : 0;
    document.documentElement.style.scrollPaddingTop = `${covered + 8}px`;
    consoleElement.scrollIntoView({ behavior: 'smooth', block: 'start' });
    consoleElement.focus({ preventScroll: true });
  });
}
