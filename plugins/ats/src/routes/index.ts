import { applicationRoutes } from './applications.js';
import { candidateRoutes } from './candidates.js';
import { careerRoutes } from './careers.js';
import { jobRoutes } from './jobs.js';
import { meRoutes } from './me.js';
import { pipelineRoutes } from './pipelines.js';
import { publicRoutes } from './public.js';

/** Every route of the app; each has its row in app.json's authorization table. */
export const routes = [...jobRoutes, ...pipelineRoutes, ...candidateRoutes, ...applicationRoutes, ...careerRoutes, ...publicRoutes, ...meRoutes];
