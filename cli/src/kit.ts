/**
 * The kit's packages, imported when a command runs and not before: `wpk --version` and `--help`
 * must not pay for loading the runtime (hapi, sequelize, pg-boss, the embedded database).
 */
export const loadCore = () => import('@wpk/core');

/** The SDK, on first use (joi, ajv and sequelize come with it). */
export const loadSdk = () => import('@wpk/sdk');

/** The SDK's tooling (naming rules, manifest validator), on first use. */
export const loadSdkTooling = () => import('@wpk/sdk/tooling');
