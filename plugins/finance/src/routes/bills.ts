import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { BILL } from './answers.js';
import { BILL_STATUSES } from '../models/index.js';
import { createBill, listBills, moveBill, requireBill, updateBill } from '../services/bills.js';
import { presentBill } from '../services/present.js';
import { billBody, currency, mrn } from './schemas.js';

const links = (id: string) => ({ self: `/finance/bills/${id}`, journal_entries: `/finance/journal-entries?bill_id=${id}` });

const bills = routeFamily('/finance/bills', { record: BILL });
const bill = bills.at('/{entry_id}', { params: Joi.idParams('entry_id') });

/** Bills (accounts payable): list, record, read, edit a draft, receive/approve/void. */
export const billRoutes = [
  bills.list({
    chain: ['finance.bills.read'],
    description: 'Lists bills, newest date first (filters: status, currency, company_mrn, tag)',
    query: Joi.listQuery({ status: Joi.string().valid(...BILL_STATUSES), currency: currency(), company_mrn: mrn(), tag: Joi.string().max(50) }),
    async handler(request, ctx) {
      const { rows, count } = await listBills(ctx, request.query);
      return ctx.respond.collection(rows.map(presentBill), count);
    },
  }),
  bills.post({
    chain: ['finance.bills.create'],
    description: 'Records a bill as a draft; the same idempotency_key returns the same bill',
    payload: billBody(true),
    async handler(request, ctx) {
      const { bill } = await createBill(ctx, request.payload);
      return ctx.respond.single(presentBill(bill), links(bill.id));
    },
  }),
  bill.get({
    chain: ['finance.bills.read'],
    description: 'Reads a bill',
    async handler(request, ctx) {
      const bill = await requireBill(ctx, request.params.entry_id!);
      return ctx.respond.single(presentBill(bill), links(bill.id));
    },
  }),
  bill.put({
    chain: ['finance.bills.edit'],
    description: 'Edits a draft bill (409 for any other status)',
    payload: billBody(false),
    async handler(request, ctx) {
      const bill = await updateBill(ctx, request.params.entry_id!, request.payload);
      return ctx.respond.single(presentBill(bill), links(bill.id));
    },
  }),
  bill.patch({
    chain: ['finance.bills.edit'],
    description: 'Receives, approves (posting its entry) or voids (posting the reversal) a bill',
    payload: Joi.object({ status: Joi.string().valid('received', 'approved', 'void').required() }),
    async handler(request, ctx) {
      const bill = await moveBill(ctx, request.params.entry_id!, request.payload.status);
      return ctx.respond.single(presentBill(bill), links(bill.id));
    },
  }),
];
