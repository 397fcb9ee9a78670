import { defineElement } from '../define-element.js';
import { CodeSnippet } from './code-snippet.component.js';

export { CodeSnippet };

defineElement('code-snippet', CodeSnippet);

declare global {
  interface HTMLElementTagNameMap {
    'code-snippet': CodeSnippet;
  }
}
