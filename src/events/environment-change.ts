/** Fired by `<env-picker>` when the user selects another environment. */
export class TicEnvironmentChangeEvent extends Event {
  static readonly eventName = 'tic-environment-change';
  /** The environment now active. */
  readonly name: string;

  constructor(name: string) {
    super(TicEnvironmentChangeEvent.eventName, { bubbles: true, composed: true });
    this.name = name;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-environment-change': TicEnvironmentChangeEvent;
  }
}
