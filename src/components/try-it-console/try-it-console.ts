import { defineElement } from '../define-element.js';
import { TryItConsole } from './try-it-console.component.js';

export { TryItConsole };
// Every event, its own and those of the three elements it renders (they bubble out of it): their modules declare them
// to addEventListener, for a site importing this entry alone.
export * from '../../events/index.js';

defineElement('try-it-console', TryItConsole);

declare global {
  interface HTMLElementTagNameMap {
    'try-it-console': TryItConsole;
  }
}
