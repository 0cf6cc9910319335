import type { ClientRequestHandlers } from './client-requests.js';
import type { SilenceTimer } from './silence-timer.js';

/**
 * The questions one server has put to the user (its forms and sampling requests): while one is open, none of the
 * server's calls times out for silence, and answering one starts every call's wait again.
 */
export class OpenQuestions {
  private count = 0;
  private readonly timers = new Set<SilenceTimer>();

  /** Whether a question to the user is open. */
  get open(): boolean {
    return this.count > 0;
  }

  /** The same handlers, with each sampling and elicitation request counted as an open question while it runs. */
  counting(handlers: ClientRequestHandlers): ClientRequestHandlers {
    const asking = async <T>(question: () => Promise<T>): Promise<T> => {
      this.count += 1;
      try {
        return await question();
      } finally {
        this.count -= 1;
        for (const timer of this.timers) timer.reset();
      }
    };
    const { sample, elicit } = handlers;
    return {
      ...handlers,
      ...(sample ? { sample: (request) => asking(() => sample(request)) } : {}),
      ...(elicit ? { elicit: (request) => asking(() => elicit(request)) } : {}),
    };
  }

  /** Starts the timer's wait again each time a question is answered, until `forget`. */
  watch(timer: SilenceTimer): void {
    this.timers.add(timer);
  }

  /** Stops resetting a timer (its call ended). */
  forget(timer: SilenceTimer): void {
    this.timers.delete(timer);
  }
}
