/** Epoch milliseconds. Injected so tests can move time (session expiry, lockout) without waiting. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
