export * from './context.js';
export * from './models.js';
export * from './routes.js';
export * from './define-app.js';
