/** Fired by `<code-snippet>` when the user switches to another language tab. */
export class TicLanguageChangeEvent extends Event {
  static readonly eventName = 'tic-language-change';
  readonly language: string;

  constructor(language: string) {
    super(TicLanguageChangeEvent.eventName, { bubbles: true, composed: true });
    this.language = language;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-language-change': TicLanguageChangeEvent;
  }
}
