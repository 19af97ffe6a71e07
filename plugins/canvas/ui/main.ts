/**
 * The Canvas app's front-end: the member's boards (make, open, rename, delete) and a board's live
 * whiteboard, an SVG surface over the board's Yjs replica (ui/board-doc.ts) with sticky notes,
 * shapes, text and connectors, pan and zoom, other members' cursors, comments and exports. It runs
 * in the workspace shell's sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './canvas-app.js';

await mountApp('canvas-app');
