/** Fired by `<env-picker>` when the user sets a variable's value in the active environment. */
export class TicVariableChangeEvent extends Event {
  static readonly eventName = 'tic-variable-change';
  /** The environment the variable belongs to. */
  readonly environment: string;
  /** The variable set. Its value is the manager's to read: it may be a secret. */
  readonly name: string;

  constructor(environment: string, name: string) {
    super(TicVariableChangeEvent.eventName, { bubbles: true, composed: true });
    this.environment = environment;
    this.name = name;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'tic-variable-change': TicVariableChangeEvent;
  }
}
