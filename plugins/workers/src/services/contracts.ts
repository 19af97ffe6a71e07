import { ConflictError, InvalidError, NotFoundError, Op } from '@wpk/sdk';
import { resource, type WorkersBaseContext, type WorkersContext } from '../kit.js';
import type { Contract, ContractType } from '../models/index.js';
import { workerMrn } from './present.js';
import { by, requireWorker } from './workers.js';

/** What a create or an update of a contract may set; `null` clears an optional field. */
export interface ContractInput {
  contract_type?: ContractType;
  starts_on?: string;
  ends_on?: string | null;
  hours_per_week?: number;
  calendar_mrn?: string | null;
}

/** What every contract event carries (absent when empty), so a copy kept by another app (time off) knows the worker's hours and calendar. */
export function contractFields(contract: Contract) {
  return {
    contract_id: contract.id,
    worker_id: contract.worker_id,
    worker_mrn: workerMrn(contract.worker_id),
    contract_type: contract.contract_type,
    starts_on: contract.starts_on,
    ends_on: contract.ends_on,
    hours_per_week: Number(contract.hours_per_week),
    calendar_mrn: contract.calendar_mrn,
    revision: contract.revision,
  };
}

/** A contract as the routes answer it. */
export function presentContract(contract: Contract) {
  const { contract_id: id, ...fields } = contractFields(contract);
  return { id, ...fields, created_at: contract.created_at, updated_at: contract.updated_at };
}

/** Workers' contracts: reads and the events of every write. */
export const contracts = resource({
  model: 'contracts',
  label: 'Contract',
  order: [['starts_on', 'ASC'], ['id', 'ASC']],
  events: {
    created: (contract, ctx) => ['core.workers.contract.created', { ...contractFields(contract), by: by(ctx) }],
    updated: (contract, changed, ctx) => ['core.workers.contract.updated', { ...contractFields(contract), changed_fields: changed.filter((field) => field !== 'revision'), by: by(ctx) }],
    deleted: (contract, ctx) => ['core.workers.contract.deleted', { ...contractFields(contract), revision: contract.revision + 1, by: by(ctx) }],
  },
});

/** The worker's contract, locked; 404 when the worker has none with that id (another worker's or workspace's id answers the same). */
async function requireContract(ctx: WorkersBaseContext, workerId: string, contractId: string) {
  const contract = await contracts.find(ctx, contractId, { lock: 'update' });
  if (!contract || contract.worker_id !== workerId) throw new NotFoundError(`Contract ${contractId} not found`);
  return contract;
}

/**
 * Refuses a contract whose dates do not hold: a fixed-term contract needs its last day, which is
 * not before the first; and a worker's contracts never overlap (409 naming the other one). The
 * caller holds the worker's row lock, so two writes for one worker cannot both pass.
 */
async function assertDates(ctx: WorkersBaseContext, workerId: string, contract: { id?: string; contract_type: ContractType; starts_on: string; ends_on: string | null }): Promise<void> {
  if (contract.contract_type === 'fixed_term' && !contract.ends_on) throw new InvalidError('ends_on is required for a fixed_term contract', { field: 'ends_on' });
  if (contract.ends_on && contract.ends_on < contract.starts_on) throw new InvalidError(`ends_on ${contract.ends_on} is before starts_on ${contract.starts_on}`, { field: 'ends_on' });
  const where: Record<string, unknown> = {
    worker_id: workerId,
    [Op.or]: [{ ends_on: null }, { ends_on: { [Op.gte]: contract.starts_on } }],
  };
  if (contract.ends_on) where.starts_on = { [Op.lte]: contract.ends_on };
  if (contract.id) where.id = { [Op.ne]: contract.id };
  const other = await ctx.db.contracts.findOne({ where, order: [['starts_on', 'ASC']] });
  if (other) throw new ConflictError(`The contract overlaps contract ${other.id} (${other.starts_on} to ${other.ends_on ?? 'open-ended'}); a worker's contracts cannot overlap`, { field: 'starts_on' });
}

/** The worker's contracts, first to start first. */
export async function listContracts(ctx: WorkersContext, workerId: string) {
  const worker = await requireWorker(ctx, workerId);
  return contracts.list(ctx, { where: { worker_id: worker.id } });
}

/** Adds a contract to a worker. Emits `contract.created`. */
export async function createContract(ctx: WorkersContext, workerId: string, input: ContractInput & { contract_type: ContractType; starts_on: string; hours_per_week: number }): Promise<Contract> {
  const worker = await requireWorker(ctx, workerId, 'update');
  const values = { worker_id: worker.id, contract_type: input.contract_type, starts_on: input.starts_on, ends_on: input.ends_on ?? null, hours_per_week: String(input.hours_per_week), calendar_mrn: input.calendar_mrn ?? null, revision: 1 };
  await assertDates(ctx, worker.id, values);
  return contracts.create(ctx, values);
}

/** Changes the given fields of a worker's contract. Emits `contract.updated` when something changed. */
export async function updateContract(ctx: WorkersContext, workerId: string, contractId: string, input: ContractInput): Promise<Contract> {
  const worker = await requireWorker(ctx, workerId, 'update');
  const contract = await requireContract(ctx, worker.id, contractId);
  const next = {
    contract_type: input.contract_type ?? contract.contract_type,
    starts_on: input.starts_on ?? contract.starts_on,
    ends_on: input.ends_on === undefined ? contract.ends_on : input.ends_on,
    hours_per_week: input.hours_per_week === undefined ? contract.hours_per_week : Number(input.hours_per_week).toFixed(2),
    calendar_mrn: input.calendar_mrn === undefined ? contract.calendar_mrn : input.calendar_mrn,
  };
  await assertDates(ctx, worker.id, { id: contract.id, ...next });
  // NUMERIC answers '38.00' whatever was sent: compare as numbers so 38 is no change.
  if (Number(next.hours_per_week) === Number(contract.hours_per_week)) next.hours_per_week = contract.hours_per_week;
  const { row } = await contracts.patch(ctx, contract, next, { touch: (before) => ({ revision: before.revision + 1 }) });
  return row;
}

/** Deletes a worker's contract. Emits `contract.deleted`. */
export async function deleteContract(ctx: WorkersContext, workerId: string, contractId: string) {
  const worker = await requireWorker(ctx, workerId, 'update');
  const contract = await requireContract(ctx, worker.id, contractId);
  await contracts.remove(ctx, contract);
  return { id: contract.id, worker_id: worker.id, deleted: true as const };
}
