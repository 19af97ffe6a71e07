import { boards } from './board.js';
import { boardMembers, schedules, topics, views } from './planning.js';
import { deliverables, memberReleases, taskAssignees, taskComments, taskKeyCounters, tasks } from './task.js';

export * from './board.js';
export * from './planning.js';
export * from './task.js';

/** Every model of the app, by the name services use in `ctx.db`. */
export const models = { boards, tasks, taskAssignees, taskComments, taskKeyCounters, deliverables, topics, schedules, boardMembers, views, memberReleases };

/** The models' type, for typing contexts: `AppContext<Models>`. */
export type Models = typeof models;
