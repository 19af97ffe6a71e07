import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { CONTRACT_TYPES } from '../models/index.js';
import { createContract, deleteContract, listContracts, presentContract, updateContract } from '../services/contracts.js';
import { CONTRACT, DELETED_CONTRACT } from './answers.js';

const fields = {
  contract_type: Joi.string().valid(...CONTRACT_TYPES),
  starts_on: Joi.calendarDate(),
  ends_on: Joi.calendarDate().allow(null),
  // Hours to the hundredth (37.5, 38.75): more decimals are rounded.
  hours_per_week: Joi.number().greater(0).max(168).precision(2),
  calendar_mrn: Joi.string().max(200).pattern(/^mrn:settings:calendar:[^:\s]+$/).allow(null).messages({ 'string.pattern.base': '{#label} must be a settings calendar MRN: mrn:settings:calendar: and its id' }),
};

const contracts = routeFamily('/workers/{worker_id}/contracts', { params: Joi.idParams('worker_id'), record: CONTRACT, present: presentContract });
const contract = contracts.at('/{contract_id}', { params: Joi.idParams('worker_id', 'contract_id') });

/** A worker's contracts: list, add, change, delete. */
export const contractRoutes = [
  contracts.list({
    chain: ['workers.contracts.read'],
    description: "Lists a worker's contracts, first to start first",
    query: Joi.listQuery(),
    run: (request, ctx) => listContracts(ctx, request.params.worker_id),
  }),
  contracts.post({
    chain: ['workers.contracts.create'],
    description: 'Adds a contract to a worker (a fixed-term one needs ends_on); one overlapping another of the worker is 409',
    payload: Joi.object({ ...fields, contract_type: fields.contract_type.required(), starts_on: fields.starts_on.required(), hours_per_week: fields.hours_per_week.required() }),
    run: (request, ctx) => createContract(ctx, request.params.worker_id, request.payload),
  }),
  contract.patch({
    chain: ['workers.contracts.edit'],
    description: "Changes the given fields of a worker's contract; dates overlapping another contract of the worker are 409",
    payload: Joi.object(fields),
    run: (request, ctx) => updateContract(ctx, request.params.worker_id, request.params.contract_id, request.payload),
  }),
  contract.delete({
    chain: ['workers.contracts.delete'],
    answers: { single: DELETED_CONTRACT },
    description: "Deletes a worker's contract",
    run: (request, ctx) => deleteContract(ctx, request.params.worker_id, request.params.contract_id),
  }),
];
