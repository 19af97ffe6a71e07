import { competencyRoutes } from './competencies.js';
import { goalRoutes } from './goals.js';
import { reviewRoutes } from './reviews.js';
import { socialRoutes } from './social.js';

/** Every route of the app. */
export const routes = [...competencyRoutes, ...goalRoutes, ...reviewRoutes, ...socialRoutes];
