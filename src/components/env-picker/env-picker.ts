import { defineElement } from '../define-element.js';
import { EnvPicker } from './env-picker.component.js';

export { EnvPicker };
// The events it fires: their modules declare them to addEventListener, for a site importing this entry alone.
export { TicEnvironmentChangeEvent } from '../../events/environment-change.js';
export { TicVariableChangeEvent } from '../../events/variable-change.js';

defineElement('env-picker', EnvPicker);

declare global {
  interface HTMLElementTagNameMap {
    'env-picker': EnvPicker;
  }
}
