import type { SnippetLanguage } from '../core/snippets/snippet-language.js';

/** Fired by `<code-snippet>` after the user copied a snippet. */
export class TicCopyEvent extends Event {
  static readonly eventName = 'tic-copy';
  /** The snippet's language, one of the five. */
  readonly language: SnippetLanguage;
  readonly text: string;

  constructor(language: SnippetLanguage, text: string) {
    super(TicCopyEvent.eventName, { bubbles: true, composed: true });
    this.language = language;
    this.text = text;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-copy': TicCopyEvent;
  }
}
