import pino, { type DestinationStream, type Logger } from 'pino';

/** Paths that must never reach a log line, wherever they appear. */
const REDACTED = ['password', '*.password', 'secret', '*.secret', 'token', '*.token', 'api_key', '*.api_key', 'authorization', '*.authorization', 'cookie', '*.cookie', 'headers.authorization', 'headers.cookie', 'req.headers.authorization', 'req.headers.cookie'];

/** The runtime's structured logger (pino, one JSON line per event). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: { service: 'wpk' }, redact: { paths: REDACTED, censor: '[redacted]' } }, destination);
}
