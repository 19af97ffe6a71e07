/** App tokens: the short-lived, one-app credential of an app's sandboxed front-end (docs/ui.md, "The bridge"). */
export { APP_TOKEN_PREFIX, APP_TOKEN_TTL_SECONDS, AppTokenSigner, type AppTokenClaims } from './tokens.js';
export { AppTokenService, type IssuedAppToken } from './service.js';
