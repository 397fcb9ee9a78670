import { defineElement } from '../define-element.js';
import { RequestHistory } from './request-history.component.js';

export { RequestHistory };

defineElement('request-history', RequestHistory);

declare global {
  interface HTMLElementTagNameMap {
    'request-history': RequestHistory;
  }
}
