// The header's theme menu: "System" leaves it to prefers-color-scheme; Light or Dark sets the page's data-theme,
// which demo.css turns into the page's and the elements' color-scheme, and is remembered for the next visit.
//
// A classic script in <head>, not a module: a module runs once the page is parsed, after its first frames, so a
// reader who chose Dark saw each page flash Light on the way. The menu comes later in the page.
const STORAGE_KEY = 'try-it-demo-theme';

function apply(theme: string): void {
  if (theme) document.documentElement.dataset.theme = theme;
  else delete document.documentElement.dataset.theme;
}

const saved = localStorage.getItem(STORAGE_KEY) ?? '';
apply(saved);

document.addEventListener('DOMContentLoaded', () => {
  const select = document.querySelector<HTMLSelectElement>('#theme-switch');
  if (!select) return;
  select.value = saved;
  select.addEventListener('change', () => {
    localStorage.setItem(STORAGE_KEY, select.value);
    apply(select.value);
  });
});
