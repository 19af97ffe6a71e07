/**
 * The Feeds app's front-end: the timeline, a channel's posts with the composer, and a post with
 * its comments, reactions and acknowledgement. It runs in the workspace shell's sandboxed frame and
 * reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './feeds-app.js';

await mountApp('feeds-app');
