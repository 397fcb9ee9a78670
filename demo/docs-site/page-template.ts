// The pages are plain HTML files with %NAME% markers for what only the running demo knows (its ports) and for
// the site header the three pages share. (`{{name}}` is left alone: that is the console's own placeholder syntax.)

export interface PageValues {
  DOCS_ORIGIN: string;
  API_ORIGIN: string;
  PROXY_URL: string;
  RECEIVER_URL: string;
  DEMO_TOKEN: string;
  /** A local origin nothing listens on: the "Offline server" environment's. */
  OFFLINE_ORIGIN: string;
  /** The npm-import page's code sample, taken from its script when the demo starts (HTML-escaped). */
  NPM_IMPORT_SAMPLE: string;
}

/** The site's pages, in the order of the header's navigation. */
const NAVIGATION = [
  { file: 'index.html', href: '/', label: 'Script tag' },
  { file: 'npm-import.html', href: '/npm-import.html', label: 'npm import' },
  { file: 'code-snippet.html', href: '/code-snippet.html', label: '&lt;code-snippet&gt; alone' },
];

/** The header of every page (`%SITE_HEADER%`), with the link to `page` (a file name) marked as the current one. */
export function siteHeader(page: string): string {
  const links = NAVIGATION.map(({ file, href, label }) => `<a href="${href}"${file === page ? ' aria-current="page"' : ''}>${label}</a>`);
  return `<header class="site-header">
    <a class="brand" href="/">Petstore API</a>
    <nav aria-label="Ways to embed the console">
      ${[...links, '<a href="/#webhooks">Webhooks</a>'].join('\n      ')}
    </nav>
    <label class="theme-switch">Theme
      <select id="theme-switch">
        <option value="">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </label>
  </header>`;
}

/** Replaces each `%NAME%` whose name is a key of `values`; other text, `%` signs included, stays as it is. */
export function fillTemplate(html: string, values: Readonly<Record<string, string>>): string {
  return html.replace(/%([A-Z_]+)%/g, (marker, name: string) => (Object.hasOwn(values, name) ? values[name]! : marker));
}
