export { operatorRoutes } from './routes.js';
export { OPERATOR_MARK, OperatorService, type AdopterView, type OperatorView, type PreviewAppView } from './service.js';
