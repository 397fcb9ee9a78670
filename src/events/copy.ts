/** Fired by `<code-snippet>` after the user copied a snippet. */
export class TicCopyEvent extends Event {
  static readonly eventName = 'tic-copy';
  readonly language: string;
  readonly text: string;

  constructor(language: string, text: string) {
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
