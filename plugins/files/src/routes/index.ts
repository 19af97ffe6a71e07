import { adminRoutes } from './admin.js';
import { fileRoutes } from './files.js';
import { trashRoutes } from './trash.js';
import { uploadRoutes } from './uploads.js';

/** Every route of the app; each has its row in app.json's authorization table. */
export const routes = [...fileRoutes, ...uploadRoutes, ...trashRoutes, ...adminRoutes];
