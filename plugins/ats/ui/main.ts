/**
 * The Recruiting app's front-end for recruiters and hiring managers: the jobs, a job's pipeline
 * as a board by stage (an application moves to the next stage with its card's button), and an
 * application's page (the candidate, their documents, interviews, scorecards and offers). It runs
 * in the workspace shell's sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './ats-app.js';

await mountApp('ats-app');
