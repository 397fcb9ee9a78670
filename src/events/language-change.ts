import type { SnippetLanguage } from '../core/snippets/snippet-language.js';

/** Fired by `<code-snippet>` when the user switches to another language tab. */
export class TicLanguageChangeEvent extends Event {
  static readonly eventName = 'tic-language-change';
  /** The snippet's language, one of the five. */
  readonly language: SnippetLanguage;

  constructor(language: SnippetLanguage) {
    super(TicLanguageChangeEvent.eventName, { bubbles: true, composed: true });
    this.language = language;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-language-change': TicLanguageChangeEvent;
  }
}
