/**
 * The timeout of one tool call: it fires after `ms` of silence. `reset()` starts the wait again (on each progress
 * notification, and when the user has answered a form or a sampling request), and while `paused()` says a question
 * to the user is open it waits on instead of firing, so that human time never counts as the server's silence.
 */
export class SilenceTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly onSilence: () => void,
    private readonly paused: () => boolean,
  ) {
    this.reset();
  }

  /** Starts the wait for silence again from now. */
  reset(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.paused() ? this.reset() : this.onSilence()), this.ms);
  }

  /** Stops the timer for good. */
  clear(): void {
    clearTimeout(this.timer);
  }
}
