import { defineElement } from '../define-element.js';
import { TryItConsole } from './try-it-console.component.js';

export { TryItConsole };

defineElement('try-it-console', TryItConsole);

declare global {
  interface HTMLElementTagNameMap {
    'try-it-console': TryItConsole;
  }
}
