import { defineElement } from '../define-element.js';
import { RequestHistory } from './request-history.component.js';

export { RequestHistory };
// The events it fires: their modules declare them to addEventListener, for a site importing this entry alone.
export { TicHistoryDeleteEvent } from '../../events/history-delete.js';
export { TicHistorySelectEvent } from '../../events/history-select.js';

defineElement('request-history', RequestHistory);

declare global {
  interface HTMLElementTagNameMap {
    'request-history': RequestHistory;
  }
}
