// The header's theme menu: "System" leaves it to prefers-color-scheme; Light or Dark sets the page's data-theme
// and the elements' `theme` attribute, and is remembered for the next visit.
//
// A classic script in <head>, not a module: a module runs once the page is parsed, after its first frames, so a
// reader who chose Dark saw each page flash Light on the way. The menu and the elements come later in the page.
const STORAGE_KEY = 'try-it-demo-theme';
const THEMED = 'try-it-console, code-snippet';

function apply(theme: string): void {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
  for (const element of document.querySelectorAll(THEMED)) {
    if (theme) element.setAttribute('theme', theme);
    else element.removeAttribute('theme');
  }
}

const saved = localStorage.getItem(STORAGE_KEY) ?? '';
apply(saved);

document.addEventListener('DOMContentLoaded', () => {
  const select = document.querySelector<HTMLSelectElement>('#theme-switch');
  if (select) {
    select.value = saved;
    select.addEventListener('change', () => {
      localStorage.setItem(STORAGE_KEY, select.value);
      apply(select.value);
    });
  }
  apply(saved);
  // Elements rendered later (the npm-import page renders its console after this runs) get the theme too.
  new MutationObserver(() => apply(select?.value ?? saved)).observe(document.body, { childList: true, subtree: true });
});
