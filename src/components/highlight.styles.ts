import { css } from 'lit';

/**
 * Colours for highlight.js tokens, from custom properties whose defaults are `light-dark()` pairs, as in the theme.
 * The build adds the properties below to the elements that show code in custom-elements.json.
 *
 * @cssprop --tic-code-keyword - Keywords and the method in a curl line.
 * @cssprop --tic-code-string - Strings.
 * @cssprop --tic-code-number - Numbers and literals.
 * @cssprop --tic-code-name - Property names, attributes and built-ins.
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
