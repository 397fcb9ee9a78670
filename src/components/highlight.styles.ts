import { css } from 'lit';

/**
 * Colours for highlight.js tokens, from custom properties whose defaults are `light-dark()` pairs, as in the theme.
 * The build adds the properties below to the elements that show code in custom-elements.json.
 *
 * @cssprop --tic-code-keyword - Keywords, built-ins (`print`, `panic`) and `<?php`.
 * @cssprop --tic-code-string - Strings: a curl line's URL, headers and body, and a JSON body's keys and string values.
 * @cssprop --tic-code-number - Numbers and literals (`true`, `null`), variables (`$curl`) and unquoted keys (`method:`).
 * @cssprop --tic-code-name - Function and class names, parameters and properties (`response.status`).
 * @cssprop --tic-code-comment - Comments.
 */
export const highlightStyles = css`
  :host {
    --_code-keyword: var(--tic-code-keyword, light-dark(#cf222e, #ff7b72));
    --_code-string: var(--tic-code-string, light-dark(#0a3069, #a5d6ff));
    --_code-number: var(--tic-code-number, light-dark(#0550ae, #79c0ff));
    --_code-name: var(--tic-code-name, light-dark(#8250df, #d2a8ff));
    --_code-comment: var(--tic-code-comment, light-dark(#6e7781, #8b949e));
  }
  .hljs-keyword,
  .hljs-built_in,
  .hljs-meta {
    color: var(--_code-keyword);
  }
  .hljs-string,
  .hljs-regexp,
  .hljs-subst {
    color: var(--_code-string);
  }
  .hljs-number,
  .hljs-literal,
  .hljs-variable,
  .hljs-attr {
    color: var(--_code-number);
  }
  .hljs-title,
  .hljs-function,
  .hljs-params,
  .hljs-property {
    color: var(--_code-name);
  }
  .hljs-comment {
    color: var(--_code-comment);
    font-style: italic;
  }
`;
