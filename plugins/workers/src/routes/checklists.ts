import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import { CHECKLIST_KINDS, CONFIRMATIONS } from '../models/index.js';
import { createTemplate, deleteTemplate, listChecklists, listTemplates, presentTemplate, tickItem, updateTemplate } from '../services/checklists.js';
import { CHECKLIST, CHECKLIST_TEMPLATE, DELETED_TEMPLATE } from './answers.js';

const fields = {
  kind: Joi.string().valid(...CHECKLIST_KINDS),
  name: Joi.string().trim().min(1).max(200),
  department_id: Joi.id().allow(null),
  items: Joi.array()
    .items(Joi.object({ label: Joi.string().trim().min(1).max(200).required(), confirmed_by: Joi.string().valid(...Object.keys(CONFIRMATIONS)) }))
    .min(1)
    .max(50),
};

const templates = routeFamily('/workers/checklist-templates', { record: CHECKLIST_TEMPLATE, present: presentTemplate });
const template = templates.at('/{template_id}', { params: Joi.idParams('template_id') });
const checklists = routeFamily('/workers/{worker_id}/checklists', { params: Joi.idParams('worker_id'), record: CHECKLIST });

/** On/offboarding checklists: the templates, and a worker's checklists with their items. */
export const checklistRoutes = [
  templates.list({
    chain: ['workers.checklist_templates.read'],
    description: 'Lists checklist templates by kind, then name; q matches the name',
    query: Joi.listQuery({ q: Joi.string().max(200).allow(''), kind: Joi.string().valid(...CHECKLIST_KINDS) }),
    run: (request, ctx) => listTemplates(ctx, request.query),
  }),
  templates.post({
    chain: ['workers.checklist_templates.create'],
    description: 'Adds an onboarding or offboarding checklist template, for every worker or the workers of one department',
    payload: Joi.object({ ...fields, kind: fields.kind.required(), name: fields.name.required(), items: fields.items.required() }),
    run: (request, ctx) => createTemplate(ctx, request.payload),
  }),
  template.patch({
    chain: ['workers.checklist_templates.edit'],
    description: 'Changes a checklist template; checklists already opened from it stay as they are',
    payload: Joi.object(fields),
    run: (request, ctx) => updateTemplate(ctx, request.params.template_id, request.payload),
  }),
  template.delete({
    chain: ['workers.checklist_templates.delete'],
    answers: { single: DELETED_TEMPLATE },
    description: 'Deletes a checklist template; checklists opened from it stay',
    run: (request, ctx) => deleteTemplate(ctx, request.params.template_id),
  }),
  checklists.list({
    chain: ['workers.checklists.read'],
    description: "Lists a worker's checklists, oldest first, each with its items and the labels still missing",
    query: Joi.listQuery(),
    run: (request, ctx) => listChecklists(ctx, request.params.worker_id),
  }),
  checklists.at('/{checklist_id}/items/{item_id}', { params: Joi.idParams('worker_id', 'checklist_id', 'item_id') }).patch({
    chain: ['workers.checklists.edit'],
    description: 'Ticks an item of a worker\'s checklist by hand (done: false opens it again); answers the checklist',
    payload: Joi.object({ done: Joi.boolean().required() }),
    run: (request, ctx) => tickItem(ctx, request.params.worker_id, request.params.checklist_id, request.params.item_id, request.payload.done),
  }),
];
