// The header's theme menu: "System" leaves it to prefers-color-scheme; Light or Dark sets the page's data-theme,
// which demo.css turns into the page's and the elements' color-scheme, and is remembered for the next visit.
//
// A classic script in <head>, not a module: a module runs once the page is parsed, after its first frames, so a
// reader who chose Dark saw each page flash Light on the way. The menu comes later in the page.
const STORAGE_KEY = 'try-it-demo-theme';

function saved(): string {
  return localStorage.getItem(STORAGE_KEY) ?? '';
}

function apply(theme: string): void {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

function themeMenu(): HTMLSelectElement | null {
  return document.querySelector<HTMLSelectElement>('#theme-switch');
}

apply(saved());

document.addEventListener('DOMContentLoaded', () => {
  const select = themeMenu();
  if (!select) return;
  // Read again: another tab may have chosen while this page loaded.
  select.value = saved();
  select.addEventListener('change', () => {
    localStorage.setItem(STORAGE_KEY, select.value);
    apply(select.value);
  });
});

// A choice made in another tab of the site (`storage` fires in the other tabs only), or its storage cleared (key null):
// this page and its menu follow, as a page opened now would.
window.addEventListener('storage', (event) => {
  if (event.storageArea !== localStorage || (event.key !== STORAGE_KEY && event.key !== null)) return;
  const theme = saved();
  apply(theme);
  const select = themeMenu();
  if (select) select.value = theme;
});
