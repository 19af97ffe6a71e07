import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { BILL } from './answers.js';
import { BILL_STATUSES } from '../models/index.js';
import { createBill, listBills, moveBill, requireBill, updateBill } from '../services/bills.js';
import { presentBill } from '../services/present.js';
import { billBody, currency, mrn } from './schemas.js';

const links = (id: string) => ({ self: `/finance/bills/${id}`, journal_entries: `/finance/journal-entries?bill_id=${id}` });

/** Bills (accounts payable): list, record, read, edit a draft, receive/approve/void. */
export const billRoutes = [
  route({
    method: 'GET',
    path: '/finance/bills',
    chain: ['finance.bills.read'],
    answers: { collection: BILL },
    description: 'Lists bills, newest date first (filters: status, currency, company_mrn, tag)',
    validate: { query: Joi.listQuery({ status: Joi.string().valid(...BILL_STATUSES), currency: currency(), company_mrn: mrn(), tag: Joi.string().max(50) }) },
    async handler(request, ctx) {
      const { rows, count } = await listBills(ctx, request.query);
      return ctx.respond.collection(rows.map(presentBill), count);
    },
  }),
  route({
    method: 'POST',
    path: '/finance/bills',
    chain: ['finance.bills.create'],
    answers: { single: BILL },
    description: 'Records a bill as a draft; the same idempotency_key returns the same bill',
    validate: { payload: billBody(true) },
    async handler(request, ctx) {
      const { bill } = await createBill(ctx, request.payload);
      return ctx.respond.single(presentBill(bill), links(bill.id));
    },
  }),
  route({
    method: 'GET',
    path: '/finance/bills/{entry_id}',
    chain: ['finance.bills.read'],
    answers: { single: BILL },
    description: 'Reads a bill',
    validate: { params: Joi.idParams('entry_id') },
    async handler(request, ctx) {
      const bill = await requireBill(ctx, request.params.entry_id!);
      return ctx.respond.single(presentBill(bill), links(bill.id));
    },
  }),
  route({
    method: 'PUT',
    path: '/finance/bills/{entry_id}',
    chain: ['finance.bills.edit'],
    answers: { single: BILL },
    description: 'Edits a draft bill (409 for any other status)',
    validate: { params: Joi.idParams('entry_id'), payload: billBody(false) },
    async handler(request, ctx) {
      const bill = await updateBill(ctx, request.params.entry_id!, request.payload);
      return ctx.respond.single(presentBill(bill), links(bill.id));
    },
  }),
  route({
    method: 'PATCH',
    path: '/finance/bills/{entry_id}',
    chain: ['finance.bills.edit'],
    answers: { single: BILL },
    description: 'Receives, approves (posting its entry) or voids (posting the reversal) a bill',
    validate: { params: Joi.idParams('entry_id'), payload: Joi.object({ status: Joi.string().valid('received', 'approved', 'void').required() }) },
    async handler(request, ctx) {
      const bill = await moveBill(ctx, request.params.entry_id!, request.payload.status);
      return ctx.respond.single(presentBill(bill), links(bill.id));
    },
  }),
];
