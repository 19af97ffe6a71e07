import type { ContextInputs } from './inputs.js';

const LIVE_CHANNEL = /^([a-z][a-z0-9-]{0,40})\/([A-Za-z0-9_-]{1,100})$/;
const LIVE_TYPE = /^[a-z][a-z0-9_.-]{0,99}$/;

/** `ctx.live`: publications to the app's declared channel kinds, sent after the commit. */
export function liveOf({ runtime, outbox }: ContextInputs) {
  const { app } = runtime;
  const liveKinds = app.definition?.live ?? {};
  const publications = outbox.live;
  return Object.freeze({
    publish(channel: string, type: string, data: unknown, options: { audience?: string[]; revoke?: string[] } = {}) {
      const match = LIVE_CHANNEL.exec(String(channel));
      if (!match || !Object.hasOwn(liveKinds, match[1])) throw new Error(`${app.namespace} may not publish to ${String(channel)}: channels are {kind}/{id} of a kind the app declares (${Object.keys(liveKinds).join(', ') || 'none'})`);
      if (!LIVE_TYPE.test(String(type))) throw new TypeError(`${app.namespace}: live event type ${String(type)} must be 1-100 lower-case letters, digits, dots, dashes or underscores`);
      publications.push({ channel: `${app.namespace}/${channel}`, type, data: structuredClone(data ?? null), audience: options.audience ? [...options.audience] : null, revoke: [...(options.revoke ?? [])] });
    },
  });
}
