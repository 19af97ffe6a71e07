export { healthRoutes } from './health.js';
