import test from 'ava';
import { formFromAnswer } from './forms.js';

const answer = (status: number, body: { error: string; field?: string }) => ({ status, body, setCookies: [] });
const values = { name: 'Ops', password: 'hunter22', scopes: 'tasks.*' };

test("a refusal goes beside the form field its field names, or the one that field lies under", (t) => {
  t.deepEqual(formFromAnswer(answer(409, { error: 'A role named "Ops" already exists', field: 'name' }), ['name', 'permissions'], values), {
    values: { name: 'Ops', scopes: 'tasks.*' },
    errors: { name: 'A role named "Ops" already exists' },
    error: null,
  });
  t.deepEqual(formFromAnswer(answer(400, { error: 'permissions.tasks must be an array of permission keys', field: 'permissions.tasks' }), ['name', 'permissions'], {}).errors, { permissions: 'permissions.tasks must be an array of permission keys' });
  t.deepEqual(formFromAnswer(answer(400, { error: 'scopes[0] is not allowed to be empty', field: 'scopes[0]' }), ['name', 'scopes'], {}).errors, { scopes: 'scopes[0] is not allowed to be empty' });
  // The renames map an API field to the form's.
  t.deepEqual(formFromAnswer(answer(400, { error: 'full_access must be a boolean', field: 'full_access' }), ['name', 'scopes', 'full_access'], {}, { full_access: 'scopes' }).errors, { scopes: 'full_access must be a boolean' });
});

test('a field that is none of the form\'s makes the form\'s own error, whatever the message starts with', (t) => {
  t.deepEqual(formFromAnswer(answer(400, { error: 'name must be 1-200 characters', field: 'workspace_name' }), ['name', 'email'], {}), { values: {}, errors: {}, error: 'name must be 1-200 characters' });
  t.deepEqual(formFromAnswer(answer(401, { error: 'Invalid email or password' }), ['email', 'password'], {}), { values: {}, errors: {}, error: 'Invalid email or password' });
});

test("a refusal without field falls back to the message's first word", (t) => {
  t.deepEqual(formFromAnswer(answer(400, { error: 'password length must be at least 8 characters long' }), ['password'], {}).errors, { password: 'password length must be at least 8 characters long' });
  t.deepEqual(formFromAnswer(answer(400, { error: '"email" must be a valid email' }), ['email'], {}).errors, { email: '"email" must be a valid email' });
});
