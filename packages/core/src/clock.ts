/**
 * Where the runtime reads the time for sessions, API-key expiry, throttles, elevation and the
 * instants it stamps on events. Production uses the system clock; a test passes a controllable
 * one through `Runtime.create({ clock })` before boot.
 */
export type Clock = () => Date;

/** The system clock. */
export const systemClock: Clock = () => new Date();
