import test from 'ava';
import { DataTypes } from 'sequelize';
import { column } from './columns.js';
import { defineModel, type DeclaredRow, type RowOf } from './models.js';

const KINDS = ['direct', 'group', 'channel'] as const;
interface Attachment { key: string; size: number }

const chats = defineModel('chats', {
  id: column.uuid().primaryKey().defaultRandom(),
  kind: column.enum(KINDS, 10),
  name: column.string(200).nullable(),
  topic: column.string(1000).default(''),
  body: column.text(),
  seq: column.bigint().default(0),
  size: column.bigint({ mode: 'raw' }).nullable(),
  count: column.integer(),
  ratio: column.double().nullable(),
  score: column.real(),
  amount: column.decimal(14, 2),
  muted: column.boolean().default(false),
  seen_at: column.date().defaultNow(),
  due: column.dateOnly().nullable(),
  attachment: column.json<Attachment>().nullable(),
  tags: column.json<string[]>().default([]),
  data: column.blob(),
  mode: column.string(5).of<'audio' | 'video'>().nullable(),
});
const keys = defineModel('keys', { kind: column.string(10).primaryKey(), value: column.string(320).primaryKey() }, { timestamps: false });
const keysWithIndex = defineModel('keys2', { kind: column.string(10).primaryKey() }, { indexes: [{ fields: ['kind'] }] });

test('each builder gives the column options a hand-written column map gives', (t) => {
  const { get: seqGet, wpkReadAsNumber, ...seq } = chats.columns.seq as unknown as { get: () => unknown; wpkReadAsNumber: unknown };
  t.deepEqual(
    { ...chats.columns, seq },
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      kind: { type: DataTypes.STRING(10), allowNull: false },
      name: { type: DataTypes.STRING(200), allowNull: true },
      topic: { type: DataTypes.STRING(1000), allowNull: false, defaultValue: '' },
      body: { type: DataTypes.TEXT, allowNull: false },
      seq: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
      size: { type: DataTypes.BIGINT, allowNull: true },
      count: { type: DataTypes.INTEGER, allowNull: false },
      ratio: { type: DataTypes.DOUBLE, allowNull: true },
      score: { type: DataTypes.REAL, allowNull: false },
      amount: { type: DataTypes.DECIMAL(14, 2), allowNull: false },
      muted: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
      seen_at: { type: DataTypes.DATE, allowNull: false, defaultValue: DataTypes.NOW },
      due: { type: DataTypes.DATEONLY, allowNull: true },
      attachment: { type: DataTypes.JSONB, allowNull: true },
      tags: { type: DataTypes.JSONB, allowNull: false, defaultValue: [] },
      data: { type: DataTypes.BLOB, allowNull: false },
      mode: { type: DataTypes.STRING(5), allowNull: true },
    },
  );
  t.is(typeof seqGet, 'function');
  t.is(wpkReadAsNumber, true, 'the getter is marked for the runtime, which converts plain rows itself');
  t.false('wpkReadAsNumber' in (chats.columns.size as object), 'raw mode has no getter and no mark');
  t.deepEqual(keys.columns, { kind: { type: DataTypes.STRING(10), primaryKey: true }, value: { type: DataTypes.STRING(320), primaryKey: true } });
  t.deepEqual(keys.options, { timestamps: false });
  t.deepEqual(keysWithIndex.options, { indexes: [{ fields: ['kind'] }] });
});

test('a bigint column reads as a number (its own value, null kept); raw mode has no getter', (t) => {
  const get = (chats.columns.seq as { get(this: { getDataValue(key: string): unknown }): unknown }).get;
  t.is(get.call({ getDataValue: (key) => (key === 'seq' ? '9007199254740991' : 'other') }), 9007199254740991);
  t.is(get.call({ getDataValue: () => 12 }), 12);
  t.is(get.call({ getDataValue: () => null }), null);
  t.false('get' in (chats.columns.size as object));
});

test('builders are immutable: a refinement leaves the column it started from as it was', (t) => {
  const id = column.uuid();
  const key = id.primaryKey();
  const m = defineModel('m', { a: id, b: key, c: id.nullable() });
  t.deepEqual(m.columns, { a: { type: DataTypes.UUID, allowNull: false }, b: { type: DataTypes.UUID, primaryKey: true }, c: { type: DataTypes.UUID, allowNull: true } });
});

test('an enum longer than its column, and workspace_id, are refused', (t) => {
  t.throws(() => column.enum(['short', 'much too long'], 5), { message: 'column.enum: a value is longer than 5' });
  t.throws(() => defineModel('m', { workspace_id: column.uuid() }), { message: 'defineModel(m): workspace_id is added by the runtime; do not declare it' });
});

test('the old form, a Sequelize column map and the row type given, still works', (t) => {
  interface Greeting { id: string; text: string }
  const greetings = defineModel<Greeting>('greetings', { id: { type: DataTypes.UUID, primaryKey: true }, text: DataTypes.STRING(200) });
  const row: RowOf<typeof greetings> = { id: 'a', text: 'hi', workspace_id: 'w' };
  t.deepEqual(greetings.columns, { id: { type: DataTypes.UUID, primaryKey: true }, text: DataTypes.STRING(200) });
  t.is(row.text, 'hi');
});

test('the row type is inferred from the columns (type-level checks: this file must compile)', (t) => {
  type Chat = DeclaredRow<typeof chats>;
  const chat: Chat = {
    id: 'a', kind: 'group', name: null, topic: '', body: '', seq: 1, size: '12', count: 0, ratio: null, score: 1.5, amount: '1.00', muted: false,
    seen_at: new Date(), due: '2026-01-31', attachment: { key: 'k', size: 1 }, tags: ['x'], data: Buffer.from(''), mode: 'audio',
    created_at: new Date(), updated_at: new Date(),
  };
  const kind: 'direct' | 'group' | 'channel' = chat.kind;
  const name: string | null = chat.name;
  const seq: number = chat.seq;
  const size: number | string | null = chat.size;
  const attachment: Attachment | null = chat.attachment;
  const mode: 'audio' | 'video' | null = chat.mode;
  const withWorkspace: RowOf<typeof chats> = { ...chat, workspace_id: 'w' };
  const key: DeclaredRow<typeof keys> = { kind: 'email', value: 'a@b.c' };
  const indexed: DeclaredRow<typeof keysWithIndex> = { kind: 'x', created_at: new Date(), updated_at: new Date() };
  // @ts-expect-error not one of the enum's values
  const badKind: Chat['kind'] = 'dm';
  // @ts-expect-error a non-null column does not take null
  const badTopic: Chat['topic'] = null;
  // @ts-expect-error timestamps: false, so no created_at
  const badKey: DeclaredRow<typeof keys> = { kind: 'a', value: 'b', created_at: new Date() };
  // @ts-expect-error a missing column is an error
  const missing: DeclaredRow<typeof keys> = { kind: 'a' };
  // @ts-expect-error defaultRandom is for uuid and string columns
  column.integer().defaultRandom();
  // @ts-expect-error defaultNow is for date columns
  column.string(10).defaultNow();
  // @ts-expect-error a default must be of the column's type
  column.integer().default('0');
  // @ts-expect-error of<T> narrows, it does not change the type
  column.string(5).of<number>();
  t.truthy([kind, name, seq, size, attachment, mode, withWorkspace, key, indexed, badKind, badTopic, badKey, missing]);
});
