import { TryItConsole } from './try-it-console.component.js';

export { TryItConsole };

if (!customElements.get('try-it-console')) customElements.define('try-it-console', TryItConsole);

declare global {
  interface HTMLElementTagNameMap {
    'try-it-console': TryItConsole;
  }
}
