/**
 * The Growth app's front-end: goals with their progress and check-ins; the reviews one writes or
 * reads (self, peer, manager, calibrated; peer nominations and their approval); praise, 1:1s and
 * feedback requests; review cycles moved step by step to release with each cycle's reviews and
 * final scores; and the competencies with their levels.
 * It runs in the workspace shell's sandboxed frame and reaches the platform through the kit
 * (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './growth-app.js';

await mountApp('growth-app');
