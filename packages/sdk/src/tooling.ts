/**
 * `@wpk/sdk/tooling`: the manifest validator, the naming rules of the specification and the
 * system event catalog, shared by the runtime, the CLI and the test harness. App code imports
 * `@wpk/sdk` instead.
 */
export * from './manifest/index.js';
export { codeFacts, isAppDefinition } from './app/define-app.js';
export { READ_AS_NUMBER } from './app/columns.js';
export {
  DISTRIBUTED_SCHEMAS,
  checkDistribution,
  distributionPlan,
  readDistributionCatalog,
  tableKind,
  type CatalogForeignKey,
  type CatalogQuery,
  type CatalogTable,
  type DistributionLists,
  type DistributionProblem,
} from './distribution.js';
