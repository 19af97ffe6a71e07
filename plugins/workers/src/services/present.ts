import { formatMrn, memberMrn, type SearchDocument } from '@wpk/sdk';
import type { Department, HistoryRow, Worker } from '../models/index.js';

/** `mrn:workers:worker:{id}`: how other apps reference a worker. */
export const workerMrn = (id: string): string => formatMrn('workers', 'worker', id);

/** `mrn:workers:department:{id}`. */
export const departmentMrn = (id: string): string => formatMrn('workers', 'department', id);

/** The fields only a caller holding `workers.private_fields.read` is answered. */
export const PRIVATE_FIELDS = ['birth_date', 'personal_email', 'personal_phone', 'salary_band'] as const;

/** A worker as the routes answer it; the private fields only when `withPrivate` (otherwise absent, not null). */
export function presentWorker(worker: Worker, withPrivate: boolean) {
  const shown = {
    id: worker.id,
    mrn: workerMrn(worker.id),
    name: worker.name,
    work_email: worker.work_email,
    title: worker.title,
    department_id: worker.department_id,
    manager_id: worker.manager_id,
    location_mrn: worker.location_mrn,
    location_name: worker.location_name,
    start_date: worker.start_date,
    employment_type: worker.employment_type,
    member_id: worker.member_id,
    member_mrn: worker.member_id ? memberMrn(worker.member_id) : null,
    status: worker.status,
    application_id: worker.application_id,
    revision: worker.revision,
    created_at: worker.created_at,
    updated_at: worker.updated_at,
  };
  if (!withPrivate) return shown;
  return { ...shown, birth_date: worker.birth_date, personal_email: worker.personal_email, personal_phone: worker.personal_phone, salary_band: worker.salary_band };
}

/** What every worker event carries (absent when empty), so a copy kept by another app can show the worker. No private field. */
export function workerFields(worker: Worker) {
  return {
    worker_id: worker.id,
    mrn: workerMrn(worker.id),
    name: worker.name,
    work_email: worker.work_email,
    member_id: worker.member_id,
    department_id: worker.department_id,
    manager_id: worker.manager_id,
    title: worker.title,
    status: worker.status,
    employment_type: worker.employment_type,
    location_mrn: worker.location_mrn,
    start_date: worker.start_date,
    revision: worker.revision,
  };
}

/** A worker's search document: found by name and work e-mail, with the title as detail. */
export function workerDocument(worker: Worker): SearchDocument {
  return {
    type: 'worker',
    id: worker.id,
    badge: worker.status,
    title: worker.name,
    subtitle: [worker.title, worker.work_email].filter(Boolean).join(' · '),
    url: `/workers/${worker.id}`,
    names: [worker.name, worker.work_email],
    details: [worker.title],
    filters: { status: worker.status, department_id: worker.department_id },
  };
}

/** A department's search document: found by name; it opens the directory filtered to its workers. */
export function departmentDocument(department: Pick<Department, 'id' | 'name' | 'parent_id'>): SearchDocument {
  return {
    type: 'department',
    id: department.id,
    badge: '',
    title: department.name,
    subtitle: 'Department',
    url: `/?department_id=${department.id}`,
    names: [department.name],
    details: [],
    filters: { parent_id: department.parent_id ?? '' },
  };
}

/** One row of a worker's history as answered; `in_effect` marks the row whose values are current. */
export function presentHistory(row: HistoryRow, inEffect: boolean) {
  return {
    id: row.id,
    worker_id: row.worker_id,
    effective_on: row.effective_on,
    title: row.title,
    department_id: row.department_id,
    manager_id: row.manager_id,
    recorded_by: row.recorded_by,
    in_effect: inEffect,
    created_at: row.created_at,
  };
}

/** A department as answered. */
export function presentDepartment(department: Department, workerCount: number) {
  return {
    id: department.id,
    mrn: departmentMrn(department.id),
    name: department.name,
    parent_id: department.parent_id,
    head_id: department.head_id,
    worker_count: workerCount,
    revision: department.revision,
    created_at: department.created_at,
    updated_at: department.updated_at,
  };
}

/** What every department event carries. */
export function departmentFields(department: Department) {
  return { department_id: department.id, mrn: departmentMrn(department.id), name: department.name, parent_id: department.parent_id, head_id: department.head_id, revision: department.revision };
}
