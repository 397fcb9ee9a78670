import { css } from 'lit';

export const envPickerStyles = css`
  .picker {
    display: flex;
    align-items: center;
    gap: var(--_space);
    flex-wrap: wrap;
  }
  select {
    max-width: 100%;
  }
  /* Fixed columns: sized by content, the value's buttons took the name's room, and base_url broke over two lines. */
  table {
    width: 100%;
    table-layout: fixed;
    border-collapse: collapse;
    margin-top: var(--_space);
    font-size: 0.875em;
  }
  th,
  td {
    text-align: start;
    padding: 0.25rem 0.5rem;
    border-bottom: 1px solid var(--_border);
    vertical-align: top;
  }
  thead th {
    color: var(--_muted);
    font-weight: 600;
  }
  /* A row's header for screen readers, drawn as a plain cell. */
  tbody th {
    font-weight: inherit;
  }
  th:first-child {
    width: 35%;
  }
  /* Broken anywhere only where a word does not fit (a token, a URL): break-all cut the hint's words too ("co nsole"). */
  .name,
  td.value {
    font-family: var(--_mono);
    overflow-wrap: anywhere;
  }
  /* Each value reads in its own direction: a URL left to right on a right-to-left page too. Line breaks shown, as in a
     PEM key or a JSON value. */
  td.value .text {
    unicode-bidi: plaintext;
    white-space: pre-wrap;
  }
  td.value button {
    margin-inline-start: 0.5rem;
    padding: 0 0.375rem;
    font-size: 0.8125em;
  }
  /* Pressed while the value is shown. */
  td.value button[aria-pressed='true'] {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-text);
  }
  /* Forced colors replace the accent with the button's own colours, and pressed looked unpressed. System colours, not
     adjusted: adjusted, the label is drawn on a Canvas backplate, and HighlightText on it vanished. */
  @media (forced-colors: active) {
    td.value button[aria-pressed='true'] {
      forced-color-adjust: none;
      background: Highlight;
      border-color: Highlight;
      color: HighlightText;
      outline-color: CanvasText;
    }
  }
  .value-input {
    box-sizing: border-box;
    width: 100%;
    font: inherit;
    resize: vertical;
  }
  /* Typed unseen, as in a password field, which has no multi-line kind. */
  textarea.masked {
    -webkit-text-security: disc;
  }
  .hint {
    display: block;
  }
  .set-missing {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.5rem;
    margin: 0.375rem 0 0;
  }
  .set-missing button {
    max-width: 100%;
    overflow-wrap: anywhere;
    text-align: start;
    padding: 0 0.375rem;
    font-size: 0.8125em;
    font-family: var(--_mono);
  }
  .missing,
  .problem {
    margin: var(--_space) 0 0;
    padding: 0.375rem 0.5rem;
    border-inline-start: 3px solid var(--_warning);
    background: var(--_surface);
    overflow-wrap: anywhere;
  }
  .missing code {
    color: var(--_danger);
  }
`;
