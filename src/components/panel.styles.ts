import { css } from 'lit';

/**
 * A background and frame of its own, as `<code-snippet>` has, for an element that can stand alone on a page: on a
 * light page, the dark theme's light text was drawn on the page's white. `<try-it-console>` takes the frame off
 * the elements it holds, which sit on its own background.
 */
export const panelStyles = css`
  :host {
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: calc(var(--_space) * 1.5);
  }
`;
