import { boardPartRoutes } from './board-parts.js';
import { boardRoutes } from './boards.js';
import { incubatorRoutes } from './incubator.js';
import { planningRoutes } from './planning.js';
import { taskRoutes } from './tasks.js';

/** Every route of the app; each has its row in app.json's authorization table. */
export const routes = [...boardRoutes, ...incubatorRoutes, ...boardPartRoutes, ...taskRoutes, ...planningRoutes];
