import { EnvPicker } from './env-picker.component.js';

export { EnvPicker };

if (!customElements.get('env-picker')) customElements.define('env-picker', EnvPicker);

declare global {
  interface HTMLElementTagNameMap {
    'env-picker': EnvPicker;
  }
}
