import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { createDepartment, deleteDepartment, listDepartments, updateDepartment, workerCounts } from '../services/departments.js';
import { presentDepartment } from '../services/present.js';
import { DELETED_DEPARTMENT, DEPARTMENT } from './answers.js';

const params = Joi.idParams('department_id');
const fields = { name: Joi.string().trim().min(1).max(200), parent_id: Joi.id().allow(null), head_id: Joi.id().allow(null) };

const departments = routeFamily('/workers/departments', { record: DEPARTMENT });
const department = departments.at('/{department_id}', { params });

/** Departments: list, create, update (rename, head, move), delete. */
export const departmentRoutes = [
  departments.list({
    chain: ['workers.departments.read'],
    description: 'Lists departments by name; q matches the name; parent_id filters to the children of one (top: those without a parent)',
    query: Joi.listQuery({ q: Joi.string().max(200).allow(''), parent_id: Joi.id() }),
    async run(request, ctx) {
      const { rows, count } = await listDepartments(ctx, request.query);
      const counts = await workerCounts(ctx, rows.map((row) => row.id));
      return { rows: rows.map((row) => presentDepartment(row, counts.get(row.id) ?? 0)), count };
    },
  }),
  departments.post({
    chain: ['workers.departments.create'],
    description: 'Creates a department, at the top or under parent_id, with an optional head (a worker)',
    payload: Joi.object({ ...fields, name: fields.name.required() }),
    run: async (request, ctx) => presentDepartment(await createDepartment(ctx, request.payload), 0),
  }),
  department.patch({
    chain: ['workers.departments.edit'],
    description: 'Renames a department, changes its head or moves it (parent_id; null: to the top); a move making a cycle is 409',
    payload: Joi.object(fields),
    async run(request, ctx) {
      const updated = await updateDepartment(ctx, request.params.department_id, request.payload);
      const counts = await workerCounts(ctx, [updated.id]);
      return presentDepartment(updated, counts.get(updated.id) ?? 0);
    },
  }),
  department.delete({
    chain: ['workers.departments.delete'],
    answers: { single: DELETED_DEPARTMENT },
    description: 'Deletes a department without workers and sub-departments',
    run: (request, ctx) => deleteDepartment(ctx, request.params.department_id),
  }),
];
