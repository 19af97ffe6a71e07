import type { ContextInputs } from './inputs.js';

const SESSION_ID = /^[A-Za-z0-9_-]{1,100}$/;

/** `ctx.signaling` of one app in one workspace: tickets now, ends and removals queued for after the commit. */
export function signalingOf({ runtime, workspace, signaling: service, outbox }: ContextInputs) {
  const { app } = runtime;
  const ops = outbox.signaling;
  const kinds = app.definition?.signaling ?? {};
  const sessionOf = (kind: string, id: string) => {
    if (!Object.hasOwn(kinds, String(kind))) throw new Error(`${app.namespace} has no signaling session kind ${String(kind)} (it declares ${Object.keys(kinds).join(', ') || 'none'})`);
    if (!SESSION_ID.test(String(id))) throw new TypeError(`${app.namespace}: a signaling session id is 1-100 letters, digits, - or _ (got ${JSON.stringify(String(id).slice(0, 120))})`);
    return `${app.namespace}/${kind}/${id}`;
  };
  return Object.freeze({
    session(kind: string, id: string) {
      const session = sessionOf(kind, id);
      if (!service) throw new Error('No signaling in this runtime');
      return service.ticket(workspace, session);
    },
    end(kind: string, id: string) {
      ops.push({ op: 'end', session: sessionOf(kind, id) });
    },
    remove(kind: string, id: string, memberIds: string[]) {
      if (!Array.isArray(memberIds) || memberIds.some((member) => typeof member !== 'string')) throw new TypeError(`${app.namespace}: ctx.signaling.remove takes an array of member ids`);
      ops.push({ op: 'remove', session: sessionOf(kind, id), memberIds: [...memberIds] });
    },
  });
}
