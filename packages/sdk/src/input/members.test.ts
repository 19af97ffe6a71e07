import test from 'ava';
import { Joi } from './joi.js';
import { fieldLabel, memberReferenceFields, valuesAt } from './members.js';

const schema = Joi.object({
  title: Joi.string(),
  assignees: Joi.array().items(Joi.memberId()),
  owner_mrn: Joi.memberMrn(),
  from_mrn: Joi.memberMrn({ former: true }),
  panel: Joi.array().items(Joi.object({ member_mrn: Joi.memberMrn().required(), role: Joi.string() })),
});

test('memberReferenceFields finds every member reference with its path, form and rule', (t) => {
  t.deepEqual(memberReferenceFields(schema.describe()), [
    { path: 'assignees.[]', form: 'id', rule: 'active' },
    { path: 'owner_mrn', form: 'mrn', rule: 'active' },
    { path: 'from_mrn', form: 'mrn', rule: 'former' },
    { path: 'panel.[].member_mrn', form: 'mrn', rule: 'active' },
  ]);
  t.deepEqual(memberReferenceFields(Joi.object({ title: Joi.string() }).describe()), []);
});

test('valuesAt collects the strings at a path, through arrays', (t) => {
  const input = { assignees: ['a', 'b'], panel: [{ member_mrn: 'x' }, { role: 'y' }, { member_mrn: 'z' }], owner_mrn: null };
  t.deepEqual(valuesAt(input, 'assignees.[]'), ['a', 'b']);
  t.deepEqual(valuesAt(input, 'panel.[].member_mrn'), ['x', 'z']);
  t.deepEqual(valuesAt(input, 'owner_mrn'), []);
  t.deepEqual(valuesAt(undefined, 'owner_mrn'), []);
  t.is(fieldLabel('assignees.[]'), 'assignees');
  t.is(fieldLabel('panel.[].member_mrn'), 'panel[].member_mrn');
});

test('a member reference that is not shaped like one is refused by validation, naming the field', (t) => {
  t.is(schema.validate({ assignees: ['nobody'] }).error?.message, '"assignees[0]" must be the id of a member of this workspace');
  t.is(schema.validate({ owner_mrn: 'mrn:companies:company:1' }).error?.message, '"owner_mrn" must be a member MRN (mrn:account:member:<id>)');
  t.is(schema.validate({ assignees: ['0b9f6a3e-5a86-4d5e-9b59-3c1d4f1e2a7b'] }).error, undefined);
});
