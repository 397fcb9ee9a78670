// The pages are plain HTML files with %NAME% markers for what only the running demo knows: its ports.
// (`{{name}}` is left alone: that is the console's own placeholder syntax.)

export interface PageValues {
  DOCS_ORIGIN: string;
  API_ORIGIN: string;
  PROXY_URL: string;
  RECEIVER_URL: string;
  DEMO_TOKEN: string;
}

/** Replaces each `%NAME%` whose name is a key of `values`; other text, `%` signs included, stays as it is. */
export function fillTemplate(html: string, values: PageValues): string {
  return html.replace(/%([A-Z_]+)%/g, (marker, name: string) => (Object.hasOwn(values, name) ? values[name as keyof PageValues] : marker));
}
