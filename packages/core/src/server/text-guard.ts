import Boom from '@hapi/boom';
import type { Lifecycle, Request, ResponseToolkit, Server } from '@hapi/hapi';
import { findUnstorableText, TEXT_RULE } from '@wpk/sdk';

// Params and query are flat maps: a finding is a parameter's name (the root itself never is).
const ROOT = '(parameters)';

/**
 * The server-wide safety net of the text rule: before any route's validation runs, a path
 * parameter, query parameter or JSON body holding NUL or an unpaired surrogate (anywhere, keys
 * included) answers 400 naming it. Routes refuse the same through the SDK's `Joi.string()`; this
 * covers the route that validates by hand or not at all, so none can reach the database with text
 * PostgreSQL cannot store (a 500) or that Sequelize's escaping rewrites (NUL becomes `\0`).
 */
export function refuseUnstorableText(request: Request, h: ResponseToolkit): Lifecycle.ReturnValue {
  const inPath = findUnstorableText(request.params, ROOT);
  if (inPath) throw Boom.badRequest(`path parameter ${inPath} ${TEXT_RULE}`);
  const inQuery = findUnstorableText(request.query, ROOT);
  if (inQuery) throw Boom.badRequest(`${inQuery === `keys of ${ROOT}` ? 'query parameter names' : `query parameter ${inQuery}`} ${TEXT_RULE}`);
  const inBody = findUnstorableText(request.payload, 'body');
  if (inBody) throw Boom.badRequest(`${inBody} ${TEXT_RULE}`);
  return h.continue;
}

/** Installs the text rule's safety net (after authentication, when the body has been parsed). */
export function installTextGuard(server: Server): void {
  server.ext('onPostAuth', refuseUnstorableText);
}
