import { greetingRoutes } from './greetings.js';
import { helloRoutes } from './hello.js';

/** Every route; each has its entry in app.json's authorization table. */
export const routes = [...greetingRoutes, ...helloRoutes];
