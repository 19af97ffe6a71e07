import type { RouteAnswers } from '@wpk/sdk';
import type { WorkspaceRecord } from '../tenancy/index.js';
import type { ApiVersion } from './versioning.js';

/** What a route declares to the platform's conventions, under `options.app.wpk`. */
export interface WpkRouteMeta {
  /**
   * `api` (default): versioned JSON API route. `page`: a site page (HTML, no version header).
   * `system`: operational endpoints such as `/health` (no version header, no tenant needed).
   */
  kind?: 'api' | 'page' | 'system';
  /**
   * Where the route answers. `workspace` (default): only on a workspace subdomain.
   * `platform`: only on the base domain (sign-up). `any`: both.
   */
  scope?: 'workspace' | 'platform' | 'any';
  /** Media types accepted for a body; default `application/json`; the wildcard type (star, slash, star) takes any body, judged by the handler. */
  contentTypes?: string[];
  /**
   * The route takes no cookie and sets none (an app's public route, a signed storage link): a page
   * of any origin may call it, a sandboxed one (`Origin: null`) included, without the CSRF check.
   */
  anyOrigin?: boolean;
  /**
   * Error statuses the route answers besides the conventional ones (400, 401, 403, 404, 408,
   * 409, 413, 415, 429, 500, 503), for the OpenAPI document: `402` (a payment provider declined),
   * `502` (a third party it calls failed).
   */
  errors?: Array<'402' | '502'>;
}

declare module '@hapi/hapi' {
  interface RouteOptionsApp {
    wpk?: WpkRouteMeta;
    /** The record the route answers with (the SDK's RouteAnswers): OpenAPI, the typed client, the tests' response checks. */
    answers?: RouteAnswers;
  }
  interface RequestApplicationState {
    /** The tenant this request is for, resolved from the Host subdomain. */
    workspace?: WorkspaceRecord;
    /** The API version in use, once checked. */
    apiVersion?: ApiVersion;
    /** Set when the conventions already built the error answer. */
    requestId?: string;
  }
}
