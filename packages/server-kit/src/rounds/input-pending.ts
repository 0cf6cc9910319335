const inputPendingMarker = Symbol.for('mcpkit.InputPending');

/**
 * The abort reason of a handler's signal when its round suspends to ask the client for input. It is not a
 * cancellation: the client will send the request again with the answers, and the handler runs again from the start.
 */
export class InputPending extends Error {
  readonly [inputPendingMarker] = true;

  constructor() {
    super('The call is waiting for the client to answer its questions; this run of the handler is discarded.');
    this.name = 'InputPending';
  }

  /** True for an InputPending from any copy of the kit. */
  static isInstance(error: unknown): error is InputPending {
    return typeof error === 'object' && error !== null && inputPendingMarker in error;
  }
}
