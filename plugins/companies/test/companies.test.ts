import test from 'ava';
import manifest from '../app.json' with { type: 'json' };
import { checkMatrixRows, ok, startWorld } from '@wpk/testing';
import app from '../src/index.js';

const UNKNOWN = '00000000-0000-4000-8000-000000000abc';

const world = await startWorld({ app, subdomain: 'companies' });
test.after.always(() => world.close());

/** Row count of the app's table in the test workspace. */
const rows = async () => (await world.platform.query<{ n: number }>('SELECT count(*)::int AS n FROM app_companies.companies WHERE workspace_id = :id', { id: world.workspace.id }))[0].n;

test.serial('POST /companies creates a company with a normalised domain, the caller as owner, and emits company.created once with its display fields', async (t) => {
  world.takeEvents();
  const owner = world.owner;
  const reply = await owner.request('POST', '/companies', {
    name: '  Acme Corporation ',
    domain: 'https://www.ACME.com/about?x=1',
    industry: 'Manufacturing',
    size: '51-200',
    description: 'Anvils and rockets',
    address: { street: '1 Road Runner Way', city: 'Phoenix', region: 'AZ', postal_code: '85001', country: 'US' },
  });
  t.is(reply.status, 200);
  const company = reply.body.data;
  t.deepEqual(reply.body.links, { self: `/companies/${company.id}` });
  t.like(company, {
    mrn: `mrn:companies:company:${company.id}`,
    name: 'Acme Corporation',
    domain: 'acme.com',
    industry: 'Manufacturing',
    size: '51-200',
    description: 'Anvils and rockets',
    address: { street: '1 Road Runner Way', city: 'Phoenix', region: 'AZ', postal_code: '85001', country: 'US' },
    owner_id: owner.id,
    owner_mrn: `mrn:account:member:${owner.id}`,
    creator_id: owner.id,
    revision: 1,
  });
  t.deepEqual(world.takeEvents(), [
    {
      action: 'core.companies.company.created',
      payload: { company_id: company.id, company_mrn: company.mrn, name: 'Acme Corporation', domain: 'acme.com', industry: 'Manufacturing', size: '51-200', city: 'Phoenix', country: 'US', owner_mrn: company.owner_mrn, revision: 1, created_by: owner.id },
    },
  ]);
  const read = await owner.request('GET', `/companies/${company.id}`);
  t.deepEqual(read.body, { data: company, links: { self: `/companies/${company.id}` } });
});

test.serial('bad input is a 400 naming the field, writes nothing and emits nothing', async (t) => {
  world.takeEvents();
  const before = await rows();
  const cases: Array<[unknown, string, string?]> = [
    [{}, 'name is required', 'name'],
    [{ name: '   ' }, 'name is not allowed to be empty', 'name'],
    [{ name: 'x'.repeat(201) }, 'name length must be less than or equal to 200 characters long', 'name'],
    [{ name: 'Bad', domain: 'not a domain' }, 'domain must be a domain name such as example.com (got "not a domain")'],
    [{ name: 'Bad', domain: 'localhost' }, 'domain must be a domain name such as example.com (got "localhost")'],
    [{ name: 'Bad', size: '12' }, 'size must be one of [1-10, 11-50, 51-200, 201-500, 501-1000, 1001-5000, 5001-10000, 10001+, null]', 'size'],
    [{ name: 'Bad', owner_mrn: 'mrn:companies:company:x' }, 'owner_mrn must be a member MRN (mrn:account:member:<id>)', 'owner_mrn'],
    [{ name: 'Bad', owner_mrn: `mrn:account:member:${UNKNOWN}` }, `owner_mrn mrn:account:member:${UNKNOWN} is not a member of this workspace`],
    [{ name: 'Bad', address: { city: 'x'.repeat(101) } }, 'address.city length must be less than or equal to 100 characters long', 'address.city'],
  ];
  for (const [body, error, field] of cases) {
    const reply = await world.owner.request('POST', '/companies', body);
    t.is(reply.status, 400, JSON.stringify(body));
    t.deepEqual(reply.body, field === undefined ? { error } : { error, field }, JSON.stringify(body));
  }
  t.is(await rows(), before);
  t.deepEqual(world.takeEvents(), []);
});

test.serial('a second company with the same domain is a 409 naming the first, unless the settings allow duplicates', async (t) => {
  const first = await ok(world.owner.request('POST', '/companies', { name: 'Globex', domain: 'globex.example' }));
  world.takeEvents();
  const clash = await world.owner.request('POST', '/companies', { name: 'Globex again', domain: 'WWW.Globex.Example' });
  t.is(clash.status, 409);
  t.deepEqual(clash.body, { error: `Company ${first.id} (Globex) already has the domain globex.example` });
  const other = await ok(world.owner.request('POST', '/companies', { name: 'Other' }));
  t.deepEqual((await world.owner.request('PUT', `/companies/${other.id}`, { domain: 'globex.example' })).body, { error: `Company ${first.id} (Globex) already has the domain globex.example` });
  t.deepEqual(world.takeEvents().map((event) => event.action), ['core.companies.company.created']);

  t.is((await world.owner.request('PUT', '/apps/companies/settings', { unique_domains: false })).status, 200);
  const twin = await ok(world.owner.request('POST', '/companies', { name: 'Globex subsidiary', domain: 'globex.example' }));
  t.is(twin.domain, 'globex.example');
  t.is((await world.owner.request('PUT', '/apps/companies/settings', { unique_domains: true })).status, 200);
  for (const id of [first.id, other.id, twin.id]) await ok(world.owner.request('DELETE', `/companies/${id}`));
});

test.serial('PUT /companies/{id} changes the given fields, bumps the revision and names changed_fields; null clears; no change emits nothing', async (t) => {
  const member = await world.member(['companies.companies.create', 'companies.companies.edit', 'companies.companies.read']);
  const company = await ok(member.request('POST', '/companies', { name: 'Initech', industry: 'Software', address: { city: 'Austin' } }));
  world.takeEvents();
  const updated = await ok(member.request('PUT', `/companies/${company.id}`, { name: 'Initech LLC', industry: null, owner_mrn: world.owner.mrn, address: { city: 'Austin', country: 'US' } }));
  t.like(updated, { name: 'Initech LLC', industry: null, owner_id: world.owner.id, revision: 2, address: { street: null, city: 'Austin', region: null, postal_code: null, country: 'US' } });
  t.deepEqual(world.takeEvents(), [
    {
      action: 'core.companies.company.updated',
      payload: { company_id: company.id, company_mrn: company.mrn, name: 'Initech LLC', city: 'Austin', country: 'US', owner_mrn: world.owner.mrn, revision: 2, changed_fields: ['name', 'industry', 'address', 'owner_mrn'], updated_by: member.id },
    },
  ]);
  const same = await member.request('PUT', `/companies/${company.id}`, { name: 'Initech LLC', address: { city: 'Austin', country: 'US' } });
  t.is(same.status, 200);
  t.is(same.body.data.revision, 2);
  t.deepEqual(world.takeEvents(), []);
  t.deepEqual((await member.request('PUT', `/companies/${UNKNOWN}`, { name: 'Nope' })).body, { error: `Company ${UNKNOWN} not found` });
  t.deepEqual((await member.request('PUT', `/companies/${company.id}`, { name: '' })).body, { error: 'name is not allowed to be empty', field: 'name' });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('DELETE /companies/{id} removes it, emits company.deleted with the next revision, and a second delete is a 404', async (t) => {
  const company = await ok(world.owner.request('POST', '/companies', { name: 'Hooli', domain: 'hooli.example' }));
  world.takeEvents();
  t.deepEqual((await world.owner.request('DELETE', `/companies/${company.id}`)).body, { data: { id: company.id, mrn: company.mrn, deleted: true }, links: { self: `/companies/${company.id}` } });
  t.deepEqual(world.takeEvents(), [{ action: 'core.companies.company.deleted', payload: { company_id: company.id, company_mrn: company.mrn, name: 'Hooli', revision: 2, deleted_by: world.owner.id } }]);
  const again = await world.owner.request('DELETE', `/companies/${company.id}`);
  t.is(again.status, 404);
  t.deepEqual(again.body, { error: `Company ${company.id} not found` });
  t.deepEqual((await world.owner.request('GET', `/companies/${company.id}`)).body, { error: `Company ${company.id} not found` });
  t.deepEqual((await world.owner.request('GET', '/companies/not-a-uuid')).body, { error: 'Company not-a-uuid not found' });
  t.deepEqual(world.takeEvents(), []);
});

test.serial('GET /companies lists by name with the collection envelope; q matches name or domain; filters by industry, size, domain, owner', async (t) => {
  const listing = await world.platform.workspace('companies-list');
  await listing.install('companies', { access_policy: 'everyone' });
  const owner = listing.owner;
  const member = await listing.member({ permissions: ['companies.companies.create'] });
  for (const body of [
    { name: 'Zeta Labs', domain: 'zeta.example', industry: 'Biotech', size: '1-10' },
    { name: 'Alpha Foods', domain: 'alphafoods.example', industry: 'Food', size: '11-50' },
    { name: 'Mid Corp', industry: 'biotech', size: '1-10' },
  ]) await ok(owner.request('POST', '/companies', body));
  await ok(member.request('POST', '/companies', { name: 'Beta Works' }));
  const all = await owner.request('GET', '/companies?per_page=2');
  t.deepEqual(all.body.data.map((company: any) => company.name), ['Alpha Foods', 'Beta Works']);
  t.deepEqual(all.body.pagination, { page: 1, per_page: 2, total: 4, pages: 2 });
  t.is(all.body.links.next, '/companies?page=2&per_page=2');
  const names = async (query: string) => (await owner.request('GET', `/companies?${query}`)).body.data.map((company: any) => company.name);
  t.deepEqual(await names('page=2&per_page=2'), ['Mid Corp', 'Zeta Labs']);
  t.deepEqual(await names('q=zeta'), ['Zeta Labs']);
  t.deepEqual(await names('q=alphafoods.ex'), ['Alpha Foods']);
  t.deepEqual(await names('industry=BIOTECH'), ['Mid Corp', 'Zeta Labs']);
  t.deepEqual(await names('size=11-50'), ['Alpha Foods']);
  t.deepEqual(await names('domain=https://zeta.example/'), ['Zeta Labs']);
  t.deepEqual(await names(`owner_mrn=${member.mrn}`), ['Beta Works']);
  t.deepEqual((await owner.request('GET', '/companies?owner_mrn=someone')).body, { error: 'query parameter owner_mrn must be a member MRN (mrn:account:member:<id>), got someone' });
  t.deepEqual((await world.owner.request('GET', '/companies?q=zeta')).body.data, [], 'another workspace is never listed');
});

test.serial('companies are searchable by name and domain through GET /search, and follow renames and deletes', async (t) => {
  const company = await ok(world.owner.request('POST', '/companies', { name: 'Quokka Freight', domain: 'quokkafreight.example', industry: 'Logistics', address: { city: 'Perth', country: 'AU' } }));
  const found = async (q: string) => (await world.owner.request('GET', `/search?app=companies&q=${q}`)).body.data.map((hit: any) => [hit.type, hit.title, hit.subtitle, hit.url]);
  t.deepEqual(await found('quokka'), [['company', 'Quokka Freight', 'Logistics · Perth, AU', `/companies/${company.id}`]]);
  t.deepEqual(await found('quokkafreight'), [['company', 'Quokka Freight', 'Logistics · Perth, AU', `/companies/${company.id}`]]);
  await ok(world.owner.request('PUT', `/companies/${company.id}`, { name: 'Wombat Freight' }));
  t.deepEqual(await found('wombat'), [['company', 'Wombat Freight', 'Logistics · Perth, AU', `/companies/${company.id}`]]);
  const reader = await world.member(['companies.companies.read']);
  t.is((await reader.request('GET', '/search?app=companies&q=wombat')).body.data.length, 1);
  await ok(world.owner.request('DELETE', `/companies/${company.id}`));
  t.deepEqual(await found('wombat'), []);
});

test('the permission matrix: every route refuses a member without its key with the exact 403 and lets a holder through', async (t) => {
  const rows = await world.workspace.permissionMatrix('companies');
  t.is(rows.length, manifest.authorization.length);
  checkMatrixRows(t, rows);
});

test('every table can be distributed by workspace', async (t) => {
  t.deepEqual(await world.platform.distributionProblems(), []);
});
