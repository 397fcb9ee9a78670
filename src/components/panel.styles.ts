import { css } from 'lit';

/**
 * What `<env-picker>` and `<request-history>` share. A background and frame of its own, as `<code-snippet>` has, for
 * an element that can stand alone on a page: on a light page, the dark theme's light text was drawn on the page's
 * white. `<try-it-console>` takes the frame off the elements it holds, which sit on its own background.
 */
export const panelStyles = css`
  :host {
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: calc(var(--_space) * 1.5);
  }
  /* The panel's title, a heading at the size of its text. */
  h2 {
    font-size: 1em;
    margin: 0;
  }
  /* WCAG 2.2's minimum target size: Show and Edit were 19 px high, and Set buttons wrapped 4 px apart. */
  button {
    min-width: 24px;
    min-height: 24px;
  }
`;
