import { css } from 'lit';

/**
 * The public theme of every element: CSS custom properties a page sets on the element (or any ancestor),
 * mapped to private `--_x` ones. Each default colour is a `light-dark()` pair: the system's scheme picks
 * one, unless `theme="light"` or `theme="dark"` sets the element's `color-scheme`, or the page sets it on the element
 * (`html.dark try-it-console { color-scheme: dark }`); the console's scheme and font reach the elements inside it. The
 * build adds the properties below to every element in custom-elements.json.
 *
 * @cssprop --tic-font-family - Text font. Default the system UI font.
 * @cssprop --tic-font-mono - Code font. Default the system monospace font.
 * @cssprop --tic-font-size - Base text size. Default 0.9375rem.
 * @cssprop --tic-radius - Corner radius. Default 6px.
 * @cssprop --tic-spacing - Unit of the gaps between sections and fields, and of the padding around the console and panels (fields, buttons, code and the response body keep theirs). Default 0.5rem.
 * @cssprop --tic-color-background - Background of fields and panels.
 * @cssprop --tic-color-surface - Background of buttons, the tab bar, the response body, notices, errors and hovered rows.
 * @cssprop --tic-color-text - Text colour.
 * @cssprop --tic-color-muted - Secondary text: times, sizes, hints.
 * @cssprop --tic-color-border - Borders.
 * @cssprop --tic-color-accent - The Send button, a value's pressed Show button, the selected tab's underline, checkboxes, the Download link and known variables in the URL.
 * @cssprop --tic-color-accent-text - Text on accent-coloured buttons.
 * @cssprop --tic-color-success - 2xx statuses.
 * @cssprop --tic-color-warning - 3xx and 5xx statuses, notices (a truncated body, variables the environment lacks).
 * @cssprop --tic-color-danger - 4xx statuses, failed requests, errors and undefined variables.
 * @cssprop --tic-color-focus - Focus rings.
 */
export const themeStyles = css`
  :host {
    --_font: var(--tic-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_mono: var(--tic-font-mono, ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace);
    --_radius: var(--tic-radius, 6px);
    --_space: var(--tic-spacing, 0.5rem);
    --_bg: var(--tic-color-background, light-dark(#ffffff, #0d1117));
    --_surface: var(--tic-color-surface, light-dark(#f6f8fa, #161b22));
    --_text: var(--tic-color-text, light-dark(#1f2328, #e6edf3));
    --_muted: var(--tic-color-muted, light-dark(#59636e, #9198a1));
    --_border: var(--tic-color-border, light-dark(#d1d9e0, #3d444d));
    --_accent: var(--tic-color-accent, light-dark(#0b57d0, #4493f8));
    --_accent-text: var(--tic-color-accent-text, light-dark(#ffffff, #0d1117));
    --_success: var(--tic-color-success, light-dark(#1a7f37, #3fb950));
    --_warning: var(--tic-color-warning, light-dark(#9a6700, #d29922));
    --_danger: var(--tic-color-danger, light-dark(#cf222e, #f85149));
    --_focus: var(--tic-color-focus, light-dark(#0b57d0, #4493f8));
    display: block;
    font-family: var(--_font);
    font-size: var(--tic-font-size, 0.9375rem);
    color: var(--_text);
    /* Checkboxes too: they were the browser's blue beside a page's own accent. */
    accent-color: var(--_accent);
    color-scheme: light dark;
  }
  :host([theme='light']) {
    color-scheme: light;
  }
  :host([theme='dark']) {
    color-scheme: dark;
  }
  :host([hidden]) {
    display: none;
  }
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  button,
  input,
  select,
  textarea {
    font: inherit;
    color: inherit;
  }
  input,
  select,
  textarea {
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.375rem 0.5rem;
    min-width: 0;
  }
  button {
    cursor: pointer;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.375rem 0.75rem;
  }
  button:disabled {
    cursor: not-allowed;
    opacity: 0.6;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-text);
    font-weight: 600;
  }
  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  pre,
  code {
    font-family: var(--_mono);
    font-size: 0.875em;
  }
  /* Code in a block is sized once, by its pre: 0.875em of 0.875em would be 11.5px at the default size. */
  pre code {
    font-size: inherit;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
  .muted {
    color: var(--_muted);
  }
`;
