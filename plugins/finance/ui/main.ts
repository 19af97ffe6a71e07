/**
 * The Finance app's front-end: the bills (accounts payable) with their line items, taxes and state
 * moves (draft → received → approved → void), the chart of accounts, budgets, and the four reports
 * (budget vs actual and accounts-payable aging with a chart). It runs in the workspace shell's
 * sandboxed frame and reaches the platform through the kit (docs/ui.md).
 */
import { mountApp } from '@wpk/ui';
import './finance-app.js';

await mountApp('finance-app');
