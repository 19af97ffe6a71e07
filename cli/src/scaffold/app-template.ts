/**
 * The files of a new third-party app (`wpk new app`): a manifest, one route with its
 * authorization entry, one migration, one emitted event, one subscription, and a test on the
 * harness that passes as generated.
 */

export interface AppTemplateInput {
  slug: string;
  publisher: string;
  /** Version range of the @wpk packages (`workspace:*` inside the kit's own repository). */
  wpkVersion: string;
}

const title = (slug: string) => slug.split('_').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');

/** Every file of the app, by path relative to its directory. */
export function appTemplate({ slug, publisher, wpkVersion }: AppTemplateInput): Record<string, string> {
  const ns = `ext.${publisher}.${slug}`;
  const name = title(slug);
  const prefix = `/ext/${publisher}/${slug}`;
  const manifest = {
    $schema: './node_modules/@wpk/sdk/schema/app.schema.json',
    slug,
    publisher,
    name,
    version: '0.1.0',
    description: `${name}: a Workspace Platform Kit app.`,
    tile: { name, icon: 'sparkles' },
    permissions: [{ key: `${ns}.items.create`, label: 'Create items', category: 'Items' }],
    authorization: [{ method: 'POST', path: '/items', chain: [`${ns}.items.create`] }],
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
  };

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
        devDependencies: { '@wpk/testing': wpkVersion, ava: '7.0.0', tsx: '^4.23.15', typescript: '5.9.3' },
        scripts: { test: 'ava', typecheck: 'tsc -p tsconfig.json', validate: 'wpk validate .' },
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
    '.gitignore': 'node_modules/\n.wpk/\n',
    'src/index.ts': `import { defineApp } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };
import { subscriptions } from './events/index.js';
import { migrations } from './migrations/index.js';
import { models } from './models/index.js';
import { routes } from './routes/index.js';

/** ${name}: the app as the platform loads it. */
export default defineApp(manifest, { routes, migrations, models, subscriptions });
`,
    'src/models/index.ts': `import { DataTypes, defineModel } from '@wpk/sdk';

/** One item (a row of the app's own \`items\` table). */
export interface Item {
  id: string;
  title: string;
  created_by: string;
  created_at: Date;
}

/** The app's models, as \`ctx.db\` hands them out (scoped to the request's workspace). */
export const models = {
  items: defineModel<Item>('items', {
    id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
    title: { type: DataTypes.STRING(200), allowNull: false },
    created_by: { type: DataTypes.UUID, allowNull: false },
  }),
};

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
    await query(tenantTable('items', { columns: { id: 'uuid NOT NULL', title: 'varchar(200) NOT NULL', created_by: 'uuid NOT NULL' } }));
    await query('CREATE INDEX items_workspace_idx ON items (workspace_id, created_at)');
  },
  async down({ query }) {
    await query('DROP TABLE items');
  },
};
`,
    'src/services/items.ts': `import type { AppContext } from '@wpk/sdk';
import type { Item, Models } from '../models/index.js';

/** Creates an item and stages \`${ns}.item.created\` (it leaves only if the request succeeds). */
export async function createItem(ctx: AppContext<Models>, title: string): Promise<Item> {
  const item = await ctx.db.items.create({ title, created_by: ctx.member.id });
  ctx.events.stage('${ns}.item.created', { item_id: item.id, title: item.title, created_by: item.created_by });
  return item;
}
`,
    'src/routes/index.ts': `import { items } from './items.js';

/** Every route of the app (each has an entry in app.json's authorization table). */
export const routes = [...items];
`,
    'src/routes/items.ts': `import { defineRoute, Joi } from '@wpk/sdk';
import type { Models } from '../models/index.js';
import { createItem } from '../services/items.js';

/** POST /items (served at ${prefix}/items): needs ${ns}.items.create. */
export const items = [
  defineRoute<Models>({
    method: 'POST',
    path: '/items',
    description: 'Creates an item.',
    validate: { payload: Joi.object({ title: Joi.string().trim().min(1).max(200).required() }) },
    handler: async (request, ctx) => {
      const item = await createItem(ctx, request.payload.title);
      return ctx.respond.single({ id: item.id, title: item.title, created_by: item.created_by });
    },
  }),
];
`,
    'src/events/index.ts': `import type { SubscriptionHandler } from '@wpk/sdk';
import type { Models } from '../models/index.js';
import { onAppInstalled } from './app-installed.js';

/** Subscription handlers, by the action of app.json's subscriptions. */
export const subscriptions: Record<string, SubscriptionHandler<Models>> = {
  'system.app.installed': onAppInstalled,
};
`,
    'src/events/app-installed.ts': `import type { SubscriptionHandler } from '@wpk/sdk';
import type { Models } from '../models/index.js';

/** When this app is installed in a workspace, it starts with a welcome item (once: handlers must be idempotent). */
export const onAppInstalled: SubscriptionHandler<Models> = async (event, ctx) => {
  if (event.payload.app_slug !== '${ns}') return;
  if ((await ctx.db.items.count({ where: { title: 'Welcome' } })) > 0) return;
  await ctx.db.items.create({ title: 'Welcome', created_by: String(event.payload.installed_by) });
};
`,
    'test/items.test.ts': `import test from 'ava';
import { createTestPlatform, type TestPlatform, type TestWorkspace } from '@wpk/testing';
import app from '../src/index.js';

let platform: TestPlatform;
let workspace: TestWorkspace;

test.before(async () => {
  platform = await createTestPlatform({ apps: [app] });
  workspace = await platform.workspace('acme');
  await workspace.install('${ns}');
});

test.after.always(async () => {
  await platform?.close();
});

test('a member holding ${ns}.items.create creates an item, and ${ns}.item.created is emitted', async (t) => {
  const member = await workspace.member({ permissions: ['${ns}.items.create'] });
  const response = await member.post('${prefix}/items', { title: 'First item' });
  t.is(response.status, 200);
  t.like(response.body.data, { title: 'First item', created_by: member.id });
  t.deepEqual(
    workspace.events('${ns}.item.created').map((event) => event.payload),
    [{ item_id: response.body.data.id, title: 'First item', created_by: member.id }],
  );
});

test('a member whose roles may not open the app is refused at layer 4', async (t) => {
  const member = await workspace.member();
  const response = await member.post('${prefix}/items', { title: 'Nope' });
  t.is(response.status, 403);
  t.deepEqual(response.body, { error: "You don't have access to this app" });
});

test('a member who may open the app but lacks the key is refused at layer 5, naming it', async (t) => {
  const viewers = await workspace.role('Viewers');
  await workspace.allow('${ns}', viewers);
  const member = await workspace.member({ roles: [viewers] });
  const response = await member.post('${prefix}/items', { title: 'Nope' });
  t.is(response.status, 403);
  t.deepEqual(response.body, { error: 'Missing permission: ${ns}.items.create' });
});

test('a title is required', async (t) => {
  const response = await workspace.owner.post('${prefix}/items', {});
  t.is(response.status, 400);
  t.deepEqual(response.body, { error: 'title is required' });
});

test('installing the app starts the workspace with a welcome item', async (t) => {
  const results = await platform.deliver(workspace, 'system.app.installed', { app_slug: '${ns}', installed_by: workspace.owner.id });
  t.deepEqual(results, { '${ns}': 'handled' });
  const rows = await platform.query<{ title: string }>("SELECT title FROM ${`ext_${publisher}_${slug}`}.items WHERE workspace_id = :id AND title = 'Welcome'", { id: workspace.id });
  t.is(rows.length, 1);
});

test('every table can be distributed by workspace (docs/scale-out.md)', async (t) => {
  t.deepEqual(await platform.distributionProblems(), []);
});
`,
    'README.md': `# ${name}

A third-party app for the Workspace Platform Kit (\`${ns}\`), scaffolded by \`wpk new app\`.

- \`app.json\`: the manifest (permissions, the authorization table, events, subscriptions).
- \`src/routes/\`: routes (served under \`${prefix}\`); \`src/services/\`: the rules;
  \`src/models/\`: Sequelize models; \`src/migrations/\`: the schema \`ext_${publisher}_${slug}\`;
  \`src/events/\`: subscription handlers.
- \`test/\`: tests on \`@wpk/testing\`, which boots the real platform on an embedded database.

\`\`\`sh
npm test            # or: pnpm test
npx wpk validate .  # the manifest against the code
\`\`\`

To run it, name the app in your project's \`wpk.config.json\` (\`"apps": ["./path/to/this/app"]\`)
or pass \`wpk start --app <this directory>\`, then install it in a workspace:
\`POST /applications/${ns}/installations\`. See the kit's docs/writing-an-app.md.
`,
  };
}
