import { css } from 'lit';

export const tryItConsoleStyles = css`
  :host {
    container-type: inline-size;
  }
  /* Every column is minmax(0, …): an auto column grows to its longest line (a JWT, a long URL) past the page. */
  .layout {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: calc(var(--_space) * 2);
    padding: calc(var(--_space) * 1.5);
    background: var(--_bg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  @container (min-width: 56rem) {
    .layout {
      grid-template-columns: minmax(0, 1fr) 18rem;
    }
  }
  .main,
  .side {
    display: grid;
    grid-template-columns: minmax(0, 1fr);
    gap: calc(var(--_space) * 2);
    align-content: start;
    min-width: 0;
  }
  /* The console's scheme and font as they are, however the page set them (theme, --tic-*, or color-scheme and font on
     the console itself, as a site's own dark mode does): by their own :host rules, the elements inside took the system's
     scheme, light text on a dark console, and a relative --tic-font-size a second time. */
  code-snippet,
  env-picker,
  request-history {
    color-scheme: inherit;
    font: inherit;
  }
  /* Panels of their own when alone on a page; here, parts of the console's. */
  .side > env-picker,
  .side > request-history {
    background: none;
    border: none;
    border-radius: 0;
    padding: 0;
  }
  h2 {
    font-size: 1em;
    margin: 0 0 var(--_space);
  }
  /* Query parameters, Headers, Body: headings for screen readers' heading keys, drawn as the labels they were. */
  h3 {
    font: inherit;
    margin: 0;
  }
  /* Method, URL, Send. Narrow, Send takes a row of its own so the URL keeps the room beside the method; narrower
     still (the basis), the URL too: squeezed between them, it showed a dozen characters. */
  .line {
    display: flex;
    flex-wrap: wrap;
    gap: var(--_space);
  }
  /* URLs, headers, bodies and responses are code: left to right on a right-to-left page too, where the braces and
     slashes at either end would otherwise move to the other end, mirrored. */
  #url,
  .url-template,
  .header-row input.name,
  .header-row input.value,
  .parameter-row input,
  textarea,
  .response-body pre,
  .response-headers table {
    direction: ltr;
  }
  #url {
    flex: 1 1 10rem;
    font-family: var(--_mono);
  }
  @container (max-width: 32rem) {
    .line > button {
      flex-basis: 100%;
    }
    /* As wide as the method picked, not as the longest offered: GET took a third of a phone's line. A long custom
       method is shown whole, the URL then going to a row of its own. */
    #method {
      field-sizing: content;
    }
  }
  .url-template {
    margin: 0.375rem 0 0;
    font-family: var(--_mono);
    font-size: 0.875em;
    overflow-wrap: anywhere;
    color: var(--_muted);
  }
  /* A row's value marked under it: nearer its row than the next. */
  fieldset > .url-template {
    margin: 0 0 0.375rem;
  }
  mark.variable {
    background: color-mix(in srgb, var(--_accent) 15%, transparent);
    color: var(--_accent);
    /* Half the page's corner (3px by default): at 3px whatever --tic-radius said, square sites got rounded marks. */
    border-radius: calc(var(--_radius) / 2);
  }
  /* A lighter tint than a known variable's: red on 15% of itself read 4.2:1 on white, under the 4.5:1 of WCAG AA. */
  mark.variable.missing {
    background: color-mix(in srgb, var(--_danger) 8%, transparent);
    color: var(--_danger);
    text-decoration: wavy underline;
  }
  /* Forced colors kept the tint's transparency over a forced text colour: in a dark theme, dark text on a dark tint,
     the variable and its wavy line unseen. The system's own mark colours, not adjusted. */
  @media (forced-colors: active) {
    mark.variable,
    mark.variable.missing {
      forced-color-adjust: none;
      background: Mark;
      color: MarkText;
    }
  }
  fieldset.headers,
  fieldset.parameters {
    border: none;
    padding: 0;
    margin: var(--_space) 0 0;
    display: grid;
    gap: 0.375rem;
  }
  legend,
  .body-label {
    font-weight: 600;
    padding: 0;
    margin-bottom: 0.25rem;
    display: block;
  }
  .body-label {
    margin-top: var(--_space);
    display: flex;
    justify-content: space-between;
    align-items: center;
  }
  .format-body {
    font-weight: normal;
  }
  .header-row {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr) minmax(0, 2fr) auto;
    gap: 0.375rem;
    align-items: center;
  }
  .parameter-row {
    display: grid;
    grid-template-columns: minmax(0, 1fr) minmax(0, 2fr) auto;
    gap: 0.375rem;
    align-items: center;
  }
  /* On a phone, side by side, a name showed five letters ("Conte"): the value goes under its name. */
  @container (max-width: 24rem) {
    .header-row {
      grid-template-columns: auto minmax(0, 1fr) auto;
      margin-bottom: 0.25rem;
    }
    .header-row input.value {
      grid-area: 2 / 2;
    }
    .header-row .remove {
      grid-area: 1 / 3;
    }
    .parameter-row {
      grid-template-columns: minmax(0, 1fr) auto;
      margin-bottom: 0.25rem;
    }
    .parameter-row input.value {
      grid-area: 2 / 1;
    }
  }
  .header-row input.name,
  .header-row input.value,
  .parameter-row input,
  textarea {
    font-family: var(--_mono);
  }
  .add-header,
  .add-parameter {
    justify-self: start;
  }
  .default-headers-label {
    margin: 0.25rem 0 0;
    font-size: 0.875em;
  }
  .default-headers {
    margin: 0;
    padding-inline-start: 1.25rem;
    font-size: 0.875em;
    overflow-wrap: anywhere;
  }
  .default-headers code {
    font-size: inherit;
    direction: ltr;
    unicode-bidi: isolate;
  }
  .default-headers .replaced code {
    text-decoration: line-through;
  }
  textarea {
    width: 100%;
    resize: vertical;
  }
  .notice {
    color: var(--_warning);
    margin: var(--_space) 0 0;
    overflow-wrap: anywhere;
  }
  /* Rows of small fixes: Set token, Use {{pet_id}}, Restore your edits. */
  .set-missing,
  .restore-draft {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin: 0.375rem 0 0;
  }
  .set-missing button,
  .edit-credential,
  .restore-draft button {
    max-width: 100%;
    white-space: normal;
    overflow-wrap: anywhere;
    text-align: start;
  }
  .status-line,
  .partial-line {
    display: flex;
    flex-wrap: wrap;
    overflow-wrap: anywhere;
    gap: 0.75rem;
    align-items: baseline;
    margin: 0 0 var(--_space);
  }
  /* "1.2 KB had come:" beside its Copy and Download; the line keeps the margins of the text it holds. */
  .partial-line {
    margin: 0;
  }
  .redirected,
  .earlier {
    margin: 0 0 var(--_space);
    overflow-wrap: anywhere;
  }
  .redirected code {
    direction: ltr;
    unicode-bidi: isolate;
  }
  .status {
    font-weight: 700;
    font-family: var(--_mono);
  }
  .status.ok {
    color: var(--_success);
  }
  .status.redirect,
  .status.server-error {
    color: var(--_warning);
  }
  .status.client-error {
    color: var(--_danger);
  }
  .body-actions {
    display: flex;
    gap: 0.75rem;
    align-items: baseline;
    margin-inline-start: auto;
  }
  .download {
    color: var(--_accent);
  }
  .headers-note {
    margin: 0.25rem 0 0;
    font-size: 0.8125em;
    overflow-wrap: anywhere;
  }
  .headers-table {
    max-height: var(--tic-response-max-height, min(28rem, 70vh));
    overflow: auto;
    margin: 0.25rem 0 var(--_space);
  }
  .response-headers table {
    border-collapse: collapse;
    font-family: var(--_mono);
    font-size: 0.8125em;
  }
  .response-headers th,
  .response-headers td {
    text-align: left;
    padding: 0.125rem 0.5rem 0.125rem 0;
    vertical-align: top;
    /* Broken only where a word cannot fit (break-all split "content-lengt h" and "G MT"). The names keep room for the
       usual ones whole: a value's long token (an ETag, a JWT) would squeeze them to a few letters. */
    overflow-wrap: anywhere;
  }
  .response-headers th {
    min-width: min(14ch, 40cqi);
  }
  .response-body {
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.75rem;
    max-height: var(--tic-response-max-height, min(28rem, 70vh));
    overflow: auto;
  }
  /* Long lines wrap: a body cut at the display limit is often one line of JSON, 1.8 million px wide unwrapped. */
  .response-body pre {
    margin: 0;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  /* Blocks of a long text (see chunked-text.ts): laid out when scrolled near, each taken for 100 lines until then. */
  .text-block {
    display: block;
    content-visibility: auto;
    contain-intrinsic-block-size: auto 100lh;
  }
  .response-body img {
    max-width: 100%;
    height: auto;
  }
  .response-body p {
    margin: 0;
  }
  .response-body .not-an-image {
    margin-bottom: 0.5rem;
  }
  .truncated {
    color: var(--_warning);
    margin: 0 0 var(--_space);
  }
  /* Said about the body just above it: why it is not shown as sent, or what came before a failure. */
  .body-note {
    margin: 0 0 var(--_space);
  }
  .partial {
    margin: var(--_space) 0;
  }
  .error {
    border-left: 4px solid var(--_danger);
    background: var(--_surface);
    padding: 0.5rem 0.75rem;
    border-radius: var(--_radius);
  }
  .error p {
    margin: 0.25rem 0;
    overflow-wrap: anywhere;
  }
  .error-title {
    font-weight: 700;
    color: var(--_danger);
  }
  /* All the console shows when turned off, on a background of its own as the layout has one. */
  .disabled-notice {
    color: var(--_muted);
    background: var(--_bg);
    border: 1px dashed var(--_border);
    border-radius: var(--_radius);
    padding: 0.75rem;
  }
`;
