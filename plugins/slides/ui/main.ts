/**
 * The Slides app's front-end: the deck list, the slide editor (add, reorder, delete slides; edit
 * their text and speaker notes; save on the version read), the presenter view (the slide, the next
 * one, notes, a timer; only the driver moves) and the follow view (the slide the driver shows,
 * live). It runs in the workspace shell's sandboxed frame and reaches the platform through the kit.
 */
import { mountApp } from '@wpk/ui';
import './slides-app.js';

await mountApp('slides-app');
