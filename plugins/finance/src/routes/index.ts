import { accountRoutes } from './accounts.js';
import { billRoutes } from './bills.js';
import { budgetRoutes } from './budgets.js';
import { ledgerRoutes } from './ledger.js';

/** Every route of the app; each has its row in app.json's authorization table. */
export const routes = [...accountRoutes, ...billRoutes, ...budgetRoutes, ...ledgerRoutes];
