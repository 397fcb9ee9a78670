import { css } from 'lit';

export const requestHistoryStyles = css`
  .heading-row,
  .confirm {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: var(--_space);
  }
  button.danger {
    color: var(--_danger);
  }
  ol {
    list-style: none;
    margin: var(--_space) 0 0;
    padding: 0;
    max-height: var(--tic-history-max-height, 20rem);
    overflow: auto;
  }
  li {
    display: flex;
    gap: 0.25rem;
    border-bottom: 1px solid var(--_border);
  }
  li button.entry {
    flex: 1;
    min-width: 0;
    display: grid;
    grid-template-columns: auto minmax(0, 1fr) auto;
    gap: 0.125rem 0.5rem;
    text-align: start;
    border: none;
    background: none;
    padding: 0.375rem 0.25rem;
  }
  li button.entry:hover {
    background: var(--_surface);
  }
  /* Inside the button: the list scrolls, and clips what is drawn outside it. */
  li button:focus-visible {
    outline-offset: -2px;
  }
  .method {
    font-family: var(--_mono);
    font-weight: 700;
    overflow-wrap: anywhere;
  }
  /* Two lines of path before the ellipsis: in the console's side column one line held about twenty characters. Left to
     right on a right-to-left page too ("/pets/" drew as "//pets", and the ellipsis hid the start of the second line), and
     there drawn at the right, beside the method. */
  .path {
    font-family: var(--_mono);
    direction: ltr;
    overflow: hidden;
    overflow-wrap: anywhere;
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    line-clamp: 2;
  }
  :host(:dir(rtl)) .path {
    text-align: right;
  }
  .origin-in-name {
    font-size: 0;
  }
  .status {
    font-family: var(--_mono);
    font-weight: 600;
  }
  .status.ok {
    color: var(--_success);
  }
  .status.client-error,
  .status.failed {
    color: var(--_danger);
  }
  .status.redirect,
  .status.server-error {
    color: var(--_warning);
  }
  .meta {
    grid-column: 2 / 4;
    color: var(--_muted);
    font-size: 0.8125em;
    overflow-wrap: anywhere;
  }
  .origin {
    font-family: var(--_mono);
  }
  li button.delete {
    border: none;
    background: none;
    color: var(--_muted);
    padding: 0 0.5rem;
  }
  .empty,
  .warning {
    margin: var(--_space) 0 0;
  }
  .warning {
    color: var(--_warning);
    overflow-wrap: anywhere;
  }
`;
