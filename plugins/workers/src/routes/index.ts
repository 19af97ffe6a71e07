import { checklistRoutes } from './checklists.js';
import { contractRoutes } from './contracts.js';
import { departmentRoutes } from './departments.js';
import { workerRoutes } from './workers.js';

/** Every route of the app. */
export const routes = [...workerRoutes, ...contractRoutes, ...checklistRoutes, ...departmentRoutes];
