import type { AppMailMessage } from '@wpk/sdk';
import { queuedMail } from '../../mail/index.js';
import type { ContextInputs } from './inputs.js';

/** `ctx.mail`: mails queued with the work, sent after the commit. */
export function mailOf({ runtime, outbox }: ContextInputs) {
  const { app } = runtime;
  const queued = outbox.mail;
  return Object.freeze({
    send(message: AppMailMessage) {
      queued.push(queuedMail(message, app.manifest.name));
    },
  });
}
