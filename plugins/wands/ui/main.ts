/**
 * The Wands app's front-end: the member's wands (make one: when a catalog event happens, do
 * steps; activate, pause) and each wand's runs with their per-step log. It runs in the workspace
 * shell's sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './wands-app.js';

await mountApp('wands-app');
