import { css } from 'lit';

export const codeSnippetStyles = css`
  .frame {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_bg);
    overflow: hidden;
  }
  .bar {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    justify-content: space-between;
    gap: var(--_space);
    padding: 0 var(--_space);
    background: var(--_surface);
    border-bottom: 1px solid var(--_border);
  }
  /* Narrow, the tabs wrap onto a second row: on one, the last was cut off by the frame. */
  [role='tablist'] {
    display: flex;
    flex-wrap: wrap;
    min-width: 0;
    gap: 0 0.25rem;
  }
  [role='tab'] {
    border: none;
    border-bottom: 2px solid transparent;
    border-radius: 0;
    background: none;
    padding: 0.5rem 0.625rem;
    color: var(--_muted);
  }
  [role='tab'][aria-selected='true'] {
    color: var(--_text);
    border-bottom-color: var(--_accent);
    font-weight: 600;
  }
  /* Forced colors draw a transparent underline in the text colour, under every tab: system colours stay as given. */
  @media (forced-colors: active) {
    [role='tab'] {
      border-bottom-color: Canvas;
    }
    [role='tab'][aria-selected='true'] {
      border-bottom-color: Highlight;
    }
  }
  /* The frame clips what lies outside it (overflow: hidden, for its rounded corners): the focus ring of the code
     panel, which fills it, and the tabs' went mostly unseen. Drawn inside instead. */
  [role='tab']:focus-visible,
  [role='tabpanel']:focus-visible {
    outline-offset: -2px;
  }
  .tools {
    display: flex;
    align-items: center;
    gap: var(--_space);
    padding: 0.25rem 0;
  }
  /* Every label in one cell, only the current one visible (hidden ones are out of the accessible name too): the
     button is always as wide as the longest, so saying "Copied" moves nothing. */
  button.copy {
    display: inline-grid;
    justify-items: center;
  }
  button.copy > span {
    grid-area: 1 / 1;
  }
  button.copy > span:not(.shown) {
    visibility: hidden;
  }
  .tools label {
    display: inline-flex;
    align-items: center;
    gap: 0.25rem;
    font-size: 0.875em;
  }
  /* Code reads left to right on a right-to-left page too: there a line's final backslash was drawn before curl, and the
     panel opened scrolled to the lines' ends. */
  [role='tabpanel'] {
    direction: ltr;
    margin: 0;
    padding: 0.75rem;
    overflow: auto;
    max-height: var(--tic-snippet-max-height, 24rem);
  }
  /* Go is indented with tabs, drawn 8 wide by default. */
  pre {
    margin: 0;
    white-space: pre;
    tab-size: 4;
  }
  .problem {
    color: var(--_danger);
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .notice {
    color: var(--_warning);
    margin: 0;
    padding: 0.75rem 0.75rem 0;
    overflow-wrap: anywhere;
  }
  .frame > .problem {
    padding: 0.75rem;
  }
`;
