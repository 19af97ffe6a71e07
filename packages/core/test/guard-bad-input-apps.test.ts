/**
 * Bad-input guard over the routes of every app of the root wpk.config.json (the platform's own are in
 * guard-bad-input-platform.test.ts, so the two run side by side). What is sent and what is checked:
 * helpers/bad-input.ts.
 */
import test from 'ava';
import { declareBadInputGuard } from './helpers/bad-input.js';

declareBadInputGuard(test, { part: 'apps', covers: (route) => route.settings.app?.wpkApp !== undefined, minRoutes: 30 });
