/**
 * The files of a new third-party app (`wpk new app`): the whole surface an app uses, once each
 * (one route with its permission, one migration, one emitted event, one subscription, one
 * searchable type with its reindex hook, settings), its typed contract (`src/app.types.ts`,
 * written by `wpk new app` with `wpk types`), and tests for each part that pass as generated.
 */

export interface AppTemplateInput {
  slug: string;
  publisher: string;
  /** Version range of the @wpk packages (`workspace:*` inside the kit's own repository). */
  wpkVersion: string;
}

/** The manifest of a new app (also what its `src/app.types.ts` is generated from). */
export function appManifest({ slug, publisher }: Pick<AppTemplateInput, 'slug' | 'publisher'>) {
  const ns = `ext.${publisher}.${slug}`;
  const name = title(slug);
  return {
    $schema: './node_modules/@wpk/sdk/schema/app.schema.json',
    slug,
    publisher,
    name,
    version: '0.1.0',
    description: `${name}: a Workspace Platform Kit app.`,
    tile: { name, icon: 'sparkles' },
    permissions: [{ key: `${ns}.items.create`, label: 'Create items', category: 'Items' }],
    // Written from the code's route declarations by `wpk types` (and `wpk manifest`).
    authorization: [{ method: 'POST', path: '/items', chain: [`${ns}.items.create`], description: 'Creates an item.' }],
    events: [
      {
        action: `${ns}.item.created`,
        description: 'An item was created.',
        schema: {
          type: 'object',
          properties: { item_id: { type: 'string' }, title: { type: 'string' }, created_by: { type: 'string' } },
          required: ['item_id', 'title'],
        },
      },
    ],
    subscriptions: [{ action: 'system.app.installed', handler: '/events/system-app-installed', max_retries: 3 }],
    search: [{ type: 'item', label: 'Items', permissions: [`${ns}.items.create`], names: ['title'], details: [] }],
    settings: {
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['welcome_title'],
        properties: { welcome_title: { type: 'string', minLength: 1, maxLength: 200, description: 'Title of the item a workspace starts with.' } },
      },
      defaults: { welcome_title: 'Welcome' },
    },
  };
}

const title = (slug: string) => slug.split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');

/** The custom element of the app's root (an `AppRoot`): `hello` → `hello-app` (a custom element's name has a hyphen). */
const customElement = (slug: string) => `${slug.replaceAll('_', '-')}-app`;

/** The custom element of the app's one screen: `hello` → `hello-items`. */
const screenElement = (slug: string) => `${slug.replaceAll('_', '-')}-items`;

/** Every file of the app, by path relative to its directory. */
export function appTemplate({ slug, publisher, wpkVersion }: AppTemplateInput, types: string): Record<string, string> {
  const ns = `ext.${publisher}.${slug}`;
  const name = title(slug);
  const prefix = `/ext/${publisher}/${slug}`;
  const manifest = appManifest({ slug, publisher });

  return {
    'app.json': `${JSON.stringify(manifest, null, 2)}\n`,
    'package.json': `${JSON.stringify(
      {
        name: `@${publisher}/${slug.replaceAll('_', '-')}`,
        version: '0.1.0',
        private: true,
        type: 'module',
        description: manifest.description,
        exports: { '.': './src/index.ts', './app.json': './app.json' },
        dependencies: { '@wpk/sdk': wpkVersion },
        devDependencies: { '@wpk/cli': wpkVersion, '@wpk/testing': wpkVersion, '@wpk/ui': wpkVersion, ava: '7.0.0', tsx: '^4.23.15', typescript: '5.9.3' },
        scripts: { test: 'ava', build: 'wpk ui build', types: 'wpk types', typecheck: 'wpk types --check && tsc -p tsconfig.json && tsc -p ui/tsconfig.json', validate: 'wpk validate .' },
        ava: { extensions: { ts: 'module' }, nodeArguments: ['--import=tsx'], workerThreads: false, files: ['test/**/*.test.ts'], timeout: '180s' },
      },
      null,
      2,
    )}\n`,
    'tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023'], strict: true, resolveJsonModule: true, esModuleInterop: true, skipLibCheck: true, noEmit: true, types: [] },
        include: ['src', 'test'],
      },
      null,
      2,
    )}\n`,
    'ui/tsconfig.json': `${JSON.stringify(
      {
        compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM', 'DOM.Iterable'], strict: true, skipLibCheck: true, noEmit: true, types: [] },
        include: ['.'],
      },
      null,
      2,
    )}\n`,
    'ui/main.ts': `/**
 * ${name}'s front-end. It runs in the workspace shell, in a sandboxed frame, and reaches the
 * platform through @wpk/ui (docs/ui.md): \`mountApp\` opens the bridge to the shell (an API client
 * that carries this app's token) and puts the app's root on the page; \`wpk ui build\` bundles this
 * folder (the platform builds it on first use in development).
 */
import { mountApp } from '@wpk/ui';
import './app-root.js';

await mountApp('${customElement(slug)}');
`,
    'ui/app-root.ts': `import { AppRoot, html } from '@wpk/ui';
import './items-screen.js';

/**
 * The app's root: its navigation and its screens by path. \`AppRoot\` follows the route the shell
 * hands over (deep links to \`/app/${ns}/...\`, Back and Forward); the first screen whose path
 * matches renders, the last one also renders any other path. Add a screen: a custom element, a
 * line in \`screens\` (\`/items/:item_id\` gives \`{ item_id }\`), and a section if it is a tab.
 */
export class ${name.replaceAll(' ', '')}App extends AppRoot {
  protected readonly label = '${name}';
  protected readonly sections = [{ path: '/', label: 'Items' }];
  protected readonly screens = [{ path: '/', render: () => html\`<${screenElement(slug)}></${screenElement(slug)}>\` }];
}

customElements.define('${customElement(slug)}', ${name.replaceAll(' ', '')}App);
`,
    'ui/items-screen.ts': `import { LitElement, css, html, kit, sharedStyles, toast, type FormSchema, type TableColumn, type WpkDataTable, type WpkSchemaForm } from '@wpk/ui';

/** One item as the platform search shows it (the app indexes its items as type \`item\`). */
interface ItemHit {
  title: string;
  url: string;
}

/** The form of a new item: the bounds are the route's (\`POST ${prefix}/items\`). */
const NEW_ITEM: FormSchema = { required: ['title'], properties: { title: { type: 'string', title: 'Title', minLength: 1, maxLength: 200 } } };

/** \`/\`: the app's one screen: its items (through search, in this app only) and a form to add one. */
export class ItemsScreen extends LitElement {
  static override styles = [
    sharedStyles,
    css\`
      :host { display: block; }
      h1 { font-size: var(--wpk-font-size-xl); margin: 0 0 var(--wpk-space-4); }
      h2 { font-size: var(--wpk-font-size-l); }
    \`,
  ];

  private readonly columns: TableColumn<ItemHit & Record<string, unknown>>[] = [{ key: 'title', label: 'Title' }];

  override connectedCallback(): void {
    super.connectedCallback();
    void kit().bridge.title('${name}');
  }

  private async create(event: CustomEvent<{ title: string }>): Promise<void> {
    const form = event.target as WpkSchemaForm;
    try {
      await kit().client.request('POST', '${prefix}/items', { body: event.detail });
      toast(\`Item \${event.detail.title} added\`, 'success');
      form.value = {};
      form.submitting = false;
      await this.renderRoot.querySelector<WpkDataTable>('wpk-data-table')?.reload();
    } catch (error) {
      form.fail(error);
    }
  }

  protected override render() {
    return html\`<h1>${name}</h1>
      <wpk-data-table caption="Items" .source=\${'/search?app=${ns}&types=item'} .columns=\${this.columns} filterable filter-label="Find items" empty="No item yet."></wpk-data-table>
      <h2>New item</h2>
      <wpk-schema-form .schema=\${NEW_ITEM} submit-label="Add item" @wpk-submit=\${this.create}></wpk-schema-form>\`;
  }
}

customElements.define('${screenElement(slug)}', ItemsScreen);
`,
    'test/ui.test.ts': `import test from 'ava';
import { fileURLToPath } from 'node:url';
import { startWorld } from '@wpk/testing';
import { browseWorld, checkPage, type WorldBrowser } from '@wpk/testing/browser';

// The front-end in Chromium (CHROMIUM_PATH, default Debian's headless shell or chromium), through the real routes:
// sign in, open the app from the launcher in the workspace shell, add an item; axe-clean, no CSP
// violation, at two widths.
let web: WorldBrowser;

test.before(async () => {
  const app = fileURLToPath(new URL('..', import.meta.url));
  web = await browseWorld(startWorld({ app, subdomain: 'acme', listen: true }), { link: '${name}', exact: true, slug: '${ns}', ready: '${screenElement(slug)}' });
});

test.after.always(() => web?.close());

for (const width of [1280, 375]) {
  test.serial(\`at \${width} px: a member signs in, opens the app and adds an item\`, async (t) => {
    const { page, frame } = await web.openApp(width);
    await frame.getByRole('navigation', { name: '${name}' }).getByRole('link', { name: 'Items' }).waitFor();
    await frame.getByLabel('Title').fill(\`Item at \${width}\`);
    await frame.getByRole('button', { name: 'Add item' }).click();
    await frame.getByRole('cell', { name: \`Item at \${width}\` }).waitFor();
    await checkPage(t, page, frame, \`at \${width} px\`);
    await page.context().close();
  });
}
`,
    'test/docs.test.ts': `import test from 'ava';
import { testAppDoc } from '@wpk/testing';
import manifest from '../app.json' with { type: 'json' };

// README.md against app.json, as the kit's own apps check their docs pages: every route of the
// authorization table has its \`### METHOD /path\` section with a curl example (and nothing else
// has one), and the page names every permission, emitted event, subscription and setting.
testAppDoc(test, { manifest, doc: new URL('../README.md', import.meta.url), subscriptions: {}, settings: { from: 'defaults' } });
`,
    '.gitignore': 'node_modules/\n.wpk/\ndist/\n',
    'src/app.types.ts': types,
    'src/index.ts': `import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';
import { search } from './search.js';

/** ${name}: the app as the platform loads it. */
export default defineApp(manifest, { routes, migrations, models, subscriptions, search });
`,
    'src/models/index.ts': `import { column, defineModel, type DeclaredRow } from '@wpk/sdk';

/**
 * The app's models, as \`ctx.db\` hands them out (scoped to the request's workspace). Each column
 * is declared once; the row type is inferred from the columns (\`created_at\` / \`updated_at\` added).
 */
export const models = {
  items: defineModel('items', {
    id: column.uuid().primaryKey().defaultRandom(),
    /** What the item is called. */
    title: column.string(200),
    created_by: column.string(200),
  }),
};

/** One item (a row of the app's own \`items\` table). */
export type Item = DeclaredRow<typeof models.items>;

export type Models = typeof models;
`,
    'src/migrations/index.ts': `import type { AppMigration } from '@wpk/sdk';
import { createItems } from './0001-create-items.js';

/** The app's migrations, in order. */
export const migrations: AppMigration[] = [createItems];
`,
    'src/migrations/0001-create-items.ts': `import { tenantTable, type AppMigration } from '@wpk/sdk';

/**
 * The items table, in the app's own schema (search_path points there). tenantTable adds
 * workspace_id and keys the table by (workspace_id, id), so it can be sharded by workspace.
 */
export const createItems: AppMigration = {
  name: '0001-create-items',
  async up({ query }) {
    await query(tenantTable('items', { columns: { id: 'uuid NOT NULL', title: 'varchar(200) NOT NULL', created_by: 'varchar(200) NOT NULL' } }));
    await query('CREATE INDEX items_workspace_idx ON items (workspace_id, created_at)');
  },
  async down({ query }) {
    await query('DROP TABLE items');
  },
};
`,
    'src/kit.ts': `import { appKit, type AppContext, type BaseContext, type EventContext } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';

/** The app's declaration helpers, typed once with its models and its contract (\`wpk types\` writes app.types.ts). */
export const { route, routeFamily, resource } = appKit<Models, AppTypes>();

/** A route's context. */
export type Ctx = AppContext<Models, AppTypes>;

/** A subscription handler's (or a reindex hook's) context: no caller, the event's workspace. */
export type EventCtx = EventContext<Models, AppTypes>;

/** What every context has: db, events, search, settings, members. */
export type AnyCtx = BaseContext<Models, AppTypes>;
`,
    'src/services/items.ts': `import type { SearchDocument } from '@wpk/sdk';
import { resource, type AnyCtx } from '../kit.js';
import type { Item } from '../models/index.js';

/** The search document of an item (type \`item\` of app.json's search). */
export function itemDocument(item: Item): SearchDocument {
  return { type: 'item', id: item.id, title: item.title, url: \`/items/\${item.id}\`, names: [item.title] };
}

/**
 * Items of the workspace: get-or-404, lists, a keyset walk, and writes that keep the search index
 * in step and stage their events with the request's transaction (a failed request leaves none).
 */
export const items = resource({
  model: 'items',
  label: 'Item',
  order: [['created_at', 'ASC'], ['id', 'ASC']],
  searchColumns: ['title'],
  search: { type: 'item', document: itemDocument },
  events: { created: (item) => ['${ns}.item.created', { item_id: item.id, title: item.title, created_by: item.created_by }] },
});

/** Creates an item: indexed for the platform search, \`${ns}.item.created\` staged. */
export function createItem(ctx: AnyCtx, title: string, createdBy: string): Promise<Item> {
  return items.create(ctx, { title, created_by: createdBy });
}
`,
    'src/search.ts': `import type { SearchHooks } from '@wpk/sdk';
import type { AppTypes } from './app.types.js';
import type { Models } from './models/index.js';
import { itemDocument, items } from './services/items.js';

/** Search hooks by type: \`reindex\` rebuilds a workspace's documents (\`wpk search reindex\`). */
export const search: Record<string, SearchHooks<Models, AppTypes>> = {
  item: {
    async *reindex(ctx) {
      for await (const item of items.walk(ctx)) yield itemDocument(item);
    },
  },
};
`,
    'src/routes/index.ts': `import { items } from './items.js';

/** Every route of the app (each has an entry in app.json's authorization table). */
export const routes = [...items];
`,
    'src/routes/items.ts': `import { Joi } from '@wpk/sdk';
import { route } from '../kit.js';
import { createItem } from '../services/items.js';

/** POST /items (served at ${prefix}/items). Each route is written once: \`wpk types\` copies its chain into app.json. */
export const items = [
  route({
    method: 'POST',
    path: '/items',
    chain: ['${ns}.items.create'],
    description: 'Creates an item.',
    validate: { payload: Joi.object({ title: Joi.string().trim().min(1).max(200).required() }) },
    handler: async (request, ctx) => {
      const item = await createItem(ctx, request.payload.title, ctx.member.id);
      return ctx.respond.single({ id: item.id, title: item.title, created_by: item.created_by });
    },
  }),
];
`,
    'src/events/index.ts': `import type { SubscriptionHandlers } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { onAppInstalled } from './app-installed.js';

/** Subscription handlers, by the action of app.json's subscriptions (typed per action). */
export const subscriptions: SubscriptionHandlers<Models, AppTypes> = {
  'system.app.installed': onAppInstalled,
};
`,
    'src/events/app-installed.ts': `import type { SubscriptionHandler } from '@wpk/sdk';
import type { AppTypes } from '../app.types.js';
import type { Models } from '../models/index.js';
import { createItem } from '../services/items.js';

/**
 * When this app is installed in a workspace, the workspace starts with one item titled by the
 * \`welcome_title\` setting. Once only: deliveries are at least once, so handlers are idempotent.
 */
export const onAppInstalled: SubscriptionHandler<Models, AppTypes, 'system.app.installed'> = async (event, ctx) => {
  if (event.payload.app_slug !== '${ns}') return;
  if ((await ctx.db.items.count()) > 0) return;
  await createItem(ctx, ctx.settings.welcome_title, event.payload.installed_by ?? 'system');
};
`,
    'test/items.test.ts': `import test from 'ava';
import { startWorld, type TestPlatform, type TestWorkspace, type World } from '@wpk/testing';
import app from '../src/index.js';

// One test per part of the app: the route and its event, the permission (layers 4 and 5), input
// validation, the subscription, the settings, the search and its reindex hook.

let world: World;
let platform: TestPlatform;
let workspace: TestWorkspace;

test.before(async () => {
  world = await startWorld({ app, subdomain: 'acme' });
  ({ platform, workspace } = world);
});

test.after.always(() => world?.close());

const searchTitles = async (caller: TestWorkspace['owner'], q: string) => {
  const response = await caller.get(\`/search?app=${ns}&q=\${encodeURIComponent(q)}\`);
  if (response.status !== 200) throw new Error(\`GET /search answered \${response.status}: \${JSON.stringify(response.body)}\`);
  return response.body.data.map((hit: { type: string; title: string }) => \`\${hit.type}:\${hit.title}\`);
};

test('route: a member holding ${ns}.items.create creates an item, and ${ns}.item.created is emitted', async (t) => {
  const member = await workspace.member({ permissions: ['${ns}.items.create'] });
  const response = await member.post('${prefix}/items', { title: 'First item' });
  t.is(response.status, 200);
  t.like(response.body.data, { title: 'First item', created_by: member.id });
  t.deepEqual(
    workspace.events('${ns}.item.created').filter((event) => event.payload.title === 'First item').map((event) => event.payload),
    [{ item_id: response.body.data.id, title: 'First item', created_by: member.id }],
  );
});

test('permission: a member whose roles may not open the app is refused at layer 4', async (t) => {
  const member = await workspace.member();
  const response = await member.post('${prefix}/items', { title: 'Nope' });
  t.is(response.status, 403);
  t.deepEqual(response.body, { error: "You don't have access to this app" });
});

test('permission: a member who may open the app but lacks the key is refused at layer 5, naming it', async (t) => {
  const viewers = await workspace.role('Viewers');
  await workspace.allow('${ns}', viewers);
  const member = await workspace.member({ roles: [viewers] });
  const response = await member.post('${prefix}/items', { title: 'Nope' });
  t.is(response.status, 403);
  t.deepEqual(response.body, { error: 'Missing permission: ${ns}.items.create' });
});

test('validation: a title is required, and a refused request emits nothing', async (t) => {
  const before = workspace.events('${ns}.item.created').length;
  const response = await workspace.owner.post('${prefix}/items', {});
  t.is(response.status, 400);
  t.deepEqual(response.body, { error: 'title is required', field: 'title' });
  t.is(workspace.events('${ns}.item.created').length, before);
});

test('subscription: installing the app starts the workspace with a welcome item, once', async (t) => {
  const other = await platform.workspace('initech');
  await other.install('${ns}');
  for (let delivery = 0; delivery < 2; delivery++) {
    t.deepEqual(await platform.deliver(other, 'system.app.installed', { app_slug: '${ns}', installed_by: other.owner.id }), { '${ns}': 'handled' });
  }
  const rows = await platform.query<{ title: string }>('SELECT title FROM ${`ext_${publisher}_${slug}`}.items WHERE workspace_id = :id', { id: other.id });
  t.deepEqual(rows, [{ title: 'Welcome' }]);
});

test('settings: the welcome item takes its title from the settings, which the manifest\\'s schema guards', async (t) => {
  const other = await platform.workspace('globex');
  await other.install('${ns}');
  const refused = await other.owner.put('/apps/${ns}/settings', { welcome_title: '' });
  t.is(refused.status, 400);
  const saved = await other.owner.put('/apps/${ns}/settings', { welcome_title: 'Start here' });
  t.is(saved.status, 200);
  t.deepEqual(saved.body.data, { welcome_title: 'Start here' });
  await platform.deliver(other, 'system.app.installed', { app_slug: '${ns}', installed_by: other.owner.id });
  t.deepEqual(await searchTitles(other.owner, 'start'), ['item:Start here']);
});

test('search: a created item is found by the platform search', async (t) => {
  const created = await workspace.owner.post('${prefix}/items', { title: 'Quarterly platypus report' });
  t.is(created.status, 200);
  t.deepEqual(await searchTitles(workspace.owner, 'platypus'), ['item:Quarterly platypus report']);
});

test('search: the reindex hook rebuilds an emptied index (wpk search reindex runs it)', async (t) => {
  const other = await platform.workspace('umbrella'); // its own workspace: the other tests run at the same time
  await other.install('${ns}');
  const created = await other.owner.post('${prefix}/items', { title: 'Annual wombat review' });
  t.is(created.status, 200);
  await platform.query("DELETE FROM platform.search_records WHERE app = '${ns}' AND workspace_id = :id", { id: other.id });
  t.deepEqual(await searchTitles(other.owner, 'wombat'), []);
  const rebuilt = await platform.runtime.reindexSearch({ app: '${ns}', workspaceId: other.id });
  t.deepEqual(rebuilt.map((step) => \`\${step.type}: \${step.documents}\`), ['item: 1']);
  t.deepEqual(await searchTitles(other.owner, 'wombat'), ['item:Annual wombat review']);
});

test('every table can be distributed by workspace (docs/scale-out.md)', async (t) => {
  t.deepEqual(await platform.distributionProblems(), []);
});
`,
    'README.md': `# ${name}

A third-party app for the Workspace Platform Kit (\`${ns}\`), scaffolded by \`wpk new app\`.
It uses each part of the platform once, with a test for each:

- \`app.json\`: the manifest: one permission, the authorization table (one route, written from
  the code by \`wpk types\`), one emitted
  event, one subscription (\`system.app.installed\`), one searchable type (\`item\`), settings.
- \`src/app.types.ts\`: the typed contract generated from app.json by \`wpk types\` (event payloads
  by action, the settings document); run \`npm run types\` after editing app.json.
- \`src/kit.ts\`: \`route\`, \`routeFamily\` (several routes of one path, declared once) and \`resource\` bound to the app's models and contract, and its context types.
- \`src/routes/\`: routes (served under \`${prefix}\`), each with its chain of checks, written once:
  \`wpk types\` copies the table into app.json; \`src/services/\`: the rules;
  \`src/models/\`: Sequelize models; \`src/migrations/\`: the schema \`ext_${publisher}_${slug}\`;
  \`src/events/\`: subscription handlers; \`src/search.ts\`: the reindex hook of \`item\`.
- \`ui/\`: the front-end on \`@wpk/ui\`: \`main.ts\` mounts the app's root (\`app-root.ts\`, an
  \`AppRoot\`: its navigation and screens by path, deep links and Back work) with one screen
  (\`items-screen.ts\`: the items, and a form to add one); it runs in the
  workspace shell at \`/app/${ns}/\`, in a sandboxed frame, with a token for this app only.
  \`npm run build\` (\`wpk ui build\`) bundles it into \`dist/ui\`; in development the platform builds it.
- \`test/\`: tests on \`@wpk/testing\`, which boots the real platform on an embedded database;
  \`test/ui.test.ts\` drives the front-end in Chromium (\`@wpk/testing/browser\`), and
  \`test/docs.test.ts\` checks this README against app.json (see API below).

\`\`\`sh
npm test                # or: pnpm test
npm run validate        # wpk validate .: the manifest against the code
npm run typecheck       # wpk types --check (app.types.ts matches app.json), then tsc
\`\`\`

To run it, name the app in your project's \`wpk.config.json\` (\`"apps": ["./path/to/this/app"]\`)
or pass \`wpk start --app <this directory>\`, then install it in a workspace:
\`POST /applications/${ns}/installations\`. See the kit's docs/writing-an-app.md.

## API

Each route of the authorization table in app.json has its section here with a curl example, and
the page names every permission, event, subscription and setting of the app:
\`test/docs.test.ts\` checks it against app.json, so a route added to the app is documented here too.

### POST /items

Creates an item: \`title\` (required). Needs \`${ns}.items.create\`; emits \`${ns}.item.created\`.

\`\`\`sh
curl -X POST https://acme.example.com${prefix}/items \\
  -H "Authorization: Bearer $WPK_KEY" -H "X-Api-Version: 2026-11-01" -H "Content-Type: application/json" \\
  -d '{"title": "First item"}'
\`\`\`

On \`system.app.installed\` (its own installation) the app creates a first item titled with the
\`welcome_title\` setting.
`,
  };
}
