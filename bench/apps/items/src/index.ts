import { DataTypes, defineApp, defineModel, defineRoute, Joi, type AppMigration } from '@wpk/sdk';
import manifest from '../app.json' with { type: 'json' };

interface Item {
  id: number;
  label: string;
  created_at: Date;
}

const models = {
  items: defineModel<Item>('items', {
    id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
    label: { type: DataTypes.TEXT, allowNull: false },
  }),
};
type Models = typeof models;

const migrations: AppMigration[] = [
  {
    name: '0001-create-items',
    async up({ query }) {
      await query(`CREATE TABLE items (
        id serial PRIMARY KEY,
        workspace_id uuid NOT NULL REFERENCES platform.workspaces(id) ON DELETE CASCADE,
        label text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX items_workspace ON items (workspace_id, id);`);
    },
    async down({ query }) {
      await query('DROP TABLE items');
    },
  },
];

export default defineApp(manifest, {
  models,
  migrations,
  routes: [
    defineRoute<Models>({
      method: 'GET',
      path: '/bench-items',
      chain: ['bench.items.read'],
      handler: async (_request, ctx) => {
        const { rows, count } = await ctx.db.items.findAndCountAll({ attributes: ['id', 'label', 'created_at'], order: [['id', 'ASC']], limit: ctx.page.limit, offset: ctx.page.offset });
        return ctx.respond.collection(rows.map((item) => ({ id: item.id, label: item.label, created_at: item.created_at })), count);
      },
    }),
    defineRoute<Models>({
      method: 'POST',
      path: '/bench-items',
      chain: ['bench.items.create'],
      validate: { payload: Joi.object({ label: Joi.string().min(1).max(200).required() }) },
      handler: async (request, ctx) => {
        const { label } = request.payload as { label: string };
        const item = await ctx.db.items.create({ label });
        ctx.events.stage('core.bench.item.created', { item_id: item.id, label: item.label });
        return ctx.respond.single({ id: item.id, label: item.label, created_at: item.created_at });
      },
    }),
  ],
});
