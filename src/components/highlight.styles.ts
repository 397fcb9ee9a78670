import { css } from 'lit';

const darkCodeTokens = css`
  --_code-keyword: var(--tic-code-keyword, #ff7b72);
  --_code-string: var(--tic-code-string, #a5d6ff);
  --_code-number: var(--tic-code-number, #79c0ff);
  --_code-name: var(--tic-code-name, #d2a8ff);
  --_code-comment: var(--tic-code-comment, #8b949e);
`;

/** Colours for highlight.js tokens, from the theme's custom properties so light and dark both work. */
export const highlightStyles = css`
  :host {
    --_code-keyword: var(--tic-code-keyword, #cf222e);
    --_code-string: var(--tic-code-string, #0a3069);
    --_code-number: var(--tic-code-number, #0550ae);
    --_code-name: var(--tic-code-name, #8250df);
    --_code-comment: var(--tic-code-comment, #6e7781);
  }
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${darkCodeTokens}
    }
  }
  :host([theme='dark']) {
    ${darkCodeTokens}
  }
  .hljs-keyword,
  .hljs-built_in,
  .hljs-literal,
  .hljs-meta {
    color: var(--_code-keyword);
  }
  .hljs-string,
  .hljs-regexp,
  .hljs-subst {
    color: var(--_code-string);
  }
  .hljs-number,
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
