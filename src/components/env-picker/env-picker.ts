import { defineElement } from '../define-element.js';
import { EnvPicker } from './env-picker.component.js';

export { EnvPicker };

defineElement('env-picker', EnvPicker);

declare global {
  interface HTMLElementTagNameMap {
    'env-picker': EnvPicker;
  }
}
