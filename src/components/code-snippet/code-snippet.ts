import { defineElement } from '../define-element.js';
import { CodeSnippet } from './code-snippet.component.js';

export { CodeSnippet };
// The events it fires: their modules declare them to addEventListener, for a site importing this entry alone.
export { TicCopyEvent } from '../../events/copy.js';
export { TicLanguageChangeEvent } from '../../events/language-change.js';

defineElement('code-snippet', CodeSnippet);

declare global {
  interface HTMLElementTagNameMap {
    'code-snippet': CodeSnippet;
  }
}
