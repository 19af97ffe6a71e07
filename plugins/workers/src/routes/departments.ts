import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { createDepartment, deleteDepartment, listDepartments, updateDepartment, workerCounts } from '../services/departments.js';
import { presentDepartment } from '../services/present.js';
import { DELETED_DEPARTMENT, DEPARTMENT } from './answers.js';

const params = Joi.idParams('department_id');
const fields = { name: Joi.string().trim().min(1).max(200), parent_id: Joi.id().allow(null), head_id: Joi.id().allow(null) };

/** Departments: list, create, update (rename, head, move), delete. */
export const departmentRoutes = [
  route({
    method: 'GET',
    path: '/workers/departments',
    chain: ['workers.departments.read'],
    answers: { collection: DEPARTMENT },
    description: 'Lists departments by name; q matches the name; parent_id filters to the children of one (top: those without a parent)',
    validate: { query: Joi.listQuery({ q: Joi.string().max(200).allow(''), parent_id: Joi.id() }) },
    async handler(request, ctx) {
      const { rows, count } = await listDepartments(ctx, request.query);
      const counts = await workerCounts(ctx, rows.map((row) => row.id));
      return ctx.respond.collection(rows.map((row) => presentDepartment(row, counts.get(row.id) ?? 0)), count);
    },
  }),
  route({
    method: 'POST',
    path: '/workers/departments',
    chain: ['workers.departments.create'],
    answers: { single: DEPARTMENT },
    description: 'Creates a department, at the top or under parent_id, with an optional head (a worker)',
    validate: { payload: Joi.object({ ...fields, name: fields.name.required() }) },
    async handler(request, ctx) {
      const department = await createDepartment(ctx, request.payload);
      return ctx.respond.single(presentDepartment(department, 0));
    },
  }),
  route({
    method: 'PATCH',
    path: '/workers/departments/{department_id}',
    chain: ['workers.departments.edit'],
    answers: { single: DEPARTMENT },
    description: 'Renames a department, changes its head or moves it (parent_id; null: to the top); a move making a cycle is 409',
    validate: { params, payload: Joi.object(fields) },
    async handler(request, ctx) {
      const department = await updateDepartment(ctx, request.params.department_id, request.payload);
      const counts = await workerCounts(ctx, [department.id]);
      return ctx.respond.single(presentDepartment(department, counts.get(department.id) ?? 0));
    },
  }),
  route({
    method: 'DELETE',
    path: '/workers/departments/{department_id}',
    chain: ['workers.departments.delete'],
    answers: { single: DELETED_DEPARTMENT },
    description: 'Deletes a department without workers and sub-departments',
    validate: { params },
    async handler(request, ctx) {
      return ctx.respond.single(await deleteDepartment(ctx, request.params.department_id));
    },
  }),
];
