import { CodeSnippet } from './code-snippet.component.js';

export { CodeSnippet };

if (!customElements.get('code-snippet')) customElements.define('code-snippet', CodeSnippet);

declare global {
  interface HTMLElementTagNameMap {
    'code-snippet': CodeSnippet;
  }
}
