/**
 * Bad-input guard over the platform's own routes (core's route table; the apps' routes are in
 * guard-bad-input-apps.test.ts, so the two run side by side). What is sent and what is checked:
 * helpers/bad-input.ts.
 */
import test from 'ava';
import { declareBadInputGuard } from './helpers/bad-input.js';

declareBadInputGuard(test, { part: 'platform', covers: (route) => route.settings.app?.wpkApp === undefined, minRoutes: 40 });
