import { Joi } from '@wpk/sdk';
import { routeFamily } from '../kit.js';
import type { Competency, Profile } from '../models/index.js';
import { competencies, createCompetency, createProfile, deleteCompetency, listProfiles, presentCompetency, presentProfile, updateCompetency } from '../services/competencies.js';
import { COMPETENCY, DELETED_COMPETENCY, PROFILE } from './answers.js';

const fields = {
  name: Joi.string().trim().min(1).max(200),
  description: Joi.string().trim().max(5000).allow(''),
  levels: Joi.array().items(Joi.string().trim().min(1).max(1000)).min(1).max(10).description('The level descriptors, lowest first (numbered 1 up)'),
};

const family = routeFamily('/growth/competencies', { record: COMPETENCY, present: (row: Competency) => presentCompetency(row), links: (row) => ({ self: `/growth/competencies/${row.id}` }) });
const one = family.at('/{competency_id}', { params: Joi.idParams('competency_id') });
const profiles = routeFamily('/growth/profiles', { record: PROFILE, present: (row: Profile) => presentProfile(row) });

/** Competencies and role profiles. */
export const competencyRoutes = [
  family.list({
    chain: ['growth.competencies.read'],
    description: 'Lists competencies by name; q matches name or description',
    query: Joi.listQuery({ q: Joi.string().max(200).allow('') }),
    run: (request, ctx) => competencies.list(ctx, { q: request.query.q as string | undefined }),
  }),
  family.post({
    chain: ['growth.competencies.create'],
    description: 'Creates a competency (mrn:growth:competency:{id}) with its level descriptors; emits competency.created',
    payload: Joi.object({ ...fields, name: fields.name.required(), levels: fields.levels.required() }),
    run: (request, ctx) => createCompetency(ctx, request.payload),
  }),
  one.patch({
    chain: ['growth.competencies.edit'],
    description: 'Renames a competency or rewrites its description or levels (not below a level a profile expects); emits competency.updated',
    payload: Joi.object(fields),
    run: (request, ctx) => updateCompetency(ctx, request.params.competency_id, request.payload),
  }),
  one.delete({
    chain: ['growth.competencies.delete'],
    answers: { single: DELETED_COMPETENCY },
    description: 'Deletes a competency no profile expects; emits competency.deleted',
    run: (request, ctx) => deleteCompetency(ctx, request.params.competency_id),
  }),
  profiles.list({
    chain: ['growth.competencies.read'],
    description: 'Lists role profiles (the rungs of the ladders) by name',
    query: Joi.listQuery(),
    run: (_request, ctx) => listProfiles(ctx),
  }),
  profiles.post({
    chain: ['growth.profiles.create'],
    description: 'Creates a role profile: the competencies of the role and the level each expects',
    payload: Joi.object({
      name: fields.name.required(),
      description: fields.description,
      expectations: Joi.array().items(Joi.object({ competency_id: Joi.id().required(), level: Joi.number().integer().min(1).max(10).required() })).min(1).max(50).required(),
    }),
    run: (request, ctx) => createProfile(ctx, request.payload),
  }),
];
