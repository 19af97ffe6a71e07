import test from 'ava';
import { ConflictError, DataTypes, defineApp, defineModel, defineRoute, NotFoundError } from '@wpk/sdk';
import { createTestPlatform, type TestPlatform, type TestWorkspace } from '../src/index.js';

// ctx.lock, row locks and relations, under concurrent requests. On PostgreSQL the requests run
// on several connections at once; on the embedded database they queue on its one connection.

const onPostgres = Boolean(process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Every route of the fixture needs the one permission. */
const SEATS = ['ext.test.seats.boards.manage'];

interface Board {
  id: string;
  name: string;
  cap: number;
  bumps: number;
}
interface Seat {
  id: string;
  board_id: string;
  holder: string;
}

const models = {
  boards: defineModel<Board>(
    'boards',
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      name: { type: DataTypes.STRING(100), allowNull: false },
      cap: { type: DataTypes.INTEGER, allowNull: false },
      bumps: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    },
    { relations: { seats: { hasMany: 'seats', foreignKey: 'board_id' } } },
  ),
  seats: defineModel<Seat>(
    'seats',
    {
      id: { type: DataTypes.UUID, primaryKey: true, defaultValue: DataTypes.UUIDV4 },
      board_id: { type: DataTypes.UUID, allowNull: false },
      holder: { type: DataTypes.STRING(100), allowNull: false },
    },
    { relations: { board: { belongsTo: 'boards', foreignKey: 'board_id' } } },
  ),
};

type Ctx = Parameters<Parameters<typeof defineRoute<typeof models>>[0]['handler']>[1];

/** Check-then-write: a seat is taken only while the board has fewer than `cap`. */
async function takeSeat(ctx: Ctx, boardId: string, holder: string, lock: boolean) {
  if (lock) await ctx.lock(`board:${boardId}:seats`);
  const board = await ctx.db.boards.findById(boardId);
  if (!board) throw new NotFoundError(`No board ${boardId}`);
  const taken = await ctx.db.seats.count({ where: { board_id: boardId } });
  await pause(30); // widen the window between the check and the write
  if (taken >= board.cap) throw new ConflictError(`Board ${boardId} is full (${board.cap} seats)`);
  return ctx.respond.single(await ctx.db.seats.create({ board_id: boardId, holder }));
}

const routes = [
  ['POST', '/boards'],
  ['GET', '/boards/{board_id}'],
  ['GET', '/seats'],
  ['POST', '/boards/{board_id}/seats'],
  ['POST', '/boards/{board_id}/seats-unlocked'],
  ['POST', '/boards/{board_id}/bumps'],
  ['POST', '/boards/{board_id}/bumps-unlocked'],
] as const;

const app = defineApp(
  {
    slug: 'seats',
    publisher: 'test',
    name: 'Seats',
    version: '1.0.0',
    permissions: [{ key: 'ext.test.seats.boards.manage', label: 'Manage boards', category: 'Boards' }],
    authorization: routes.map(([method, path]) => ({ method, path, chain: SEATS })),
  },
  {
    models,
    migrations: [
      {
        name: '0001-boards-and-seats',
        async up({ query }) {
          await query('CREATE TABLE boards (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, name varchar(100) NOT NULL, cap int NOT NULL, bumps int NOT NULL DEFAULT 0, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())');
          await query('CREATE TABLE seats (id uuid PRIMARY KEY, workspace_id uuid NOT NULL, board_id uuid NOT NULL, holder varchar(100) NOT NULL, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now())');
        },
      },
    ],
    routes: [
      defineRoute<typeof models>({ method: 'POST', path: '/boards', chain: SEATS, handler: async (request, ctx) => ctx.respond.single(await ctx.db.boards.create({ name: (request.payload as { name: string }).name, cap: (request.payload as { cap: number }).cap })) }),
      defineRoute<typeof models>({
        method: 'GET',
        path: '/boards/{board_id}',
        chain: SEATS,
        handler: async (request, ctx) => {
          const board = await ctx.db.boards.findById(request.params.board_id, { include: [{ relation: 'seats', attributes: ['holder'] }] });
          if (!board) throw new NotFoundError(`No board ${request.params.board_id}`);
          return ctx.respond.single(board);
        },
      }),
      defineRoute<typeof models>({
        method: 'GET',
        path: '/seats',
        chain: SEATS,
        handler: async (_request, ctx) => {
          const { rows, count } = await ctx.db.seats.findAndCountAll({ include: ['board'], order: [['holder', 'ASC']] });
          return ctx.respond.collection(rows, count);
        },
      }),
      defineRoute<typeof models>({ method: 'POST', path: '/boards/{board_id}/seats', chain: SEATS, handler: (request, ctx) => takeSeat(ctx, request.params.board_id, (request.payload as { holder: string }).holder, true) }),
      defineRoute<typeof models>({ method: 'POST', path: '/boards/{board_id}/seats-unlocked', chain: SEATS, handler: (request, ctx) => takeSeat(ctx, request.params.board_id, (request.payload as { holder: string }).holder, false) }),
      ...(['bumps', 'bumps-unlocked'] as const).map((kind) =>
        defineRoute<typeof models>({
          method: 'POST',
          path: `/boards/{board_id}/${kind}`,
          chain: SEATS,
          handler: async (request, ctx) => {
            // Read-modify-write of one row: FOR UPDATE makes the next bump wait for this one.
            const board = await ctx.db.boards.findById(request.params.board_id, kind === 'bumps' ? { lock: 'update' } : {});
            if (!board) throw new NotFoundError(`No board ${request.params.board_id}`);
            await pause(30);
            await ctx.db.boards.update({ bumps: board.bumps + 1 }, { where: { id: board.id } });
            return ctx.respond.single({ bumps: board.bumps + 1 });
          },
        }),
      ),
    ],
  },
);

let platform: TestPlatform;
let ws: TestWorkspace;

test.before(async () => {
  platform = await createTestPlatform({ apps: [app] });
  ws = await platform.workspace('seats');
  await ws.install('ext.test.seats', { access_policy: 'everyone' });
});

test.after.always(async () => {
  await platform?.close();
});

// The three races below run one after another: each needs the pool's connections to itself,
// since requests waiting on a lock hold theirs and would queue (and so serialise) the others.
const path = (suffix: string) => `/ext/test/seats${suffix}`;

async function board(cap: number): Promise<string> {
  const response = await ws.owner.post(path('/boards'), { name: `cap ${cap}`, cap });
  return response.body.data.id as string;
}

test.serial('ctx.lock makes a check-then-write rule hold under concurrent requests', async (t) => {
  const id = await board(3);
  const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => ws.owner.post(path(`/boards/${id}/seats`), { holder: `m${index}` })));
  t.deepEqual(answers.map((answer) => answer.status).sort(), [200, 200, 200, 409, 409, 409, 409, 409]);
  t.deepEqual(answers.find((answer) => answer.status === 409)!.body, { error: `Board ${id} is full (3 seats)` });
  const [{ seats }] = await platform.query<{ seats: number }>('SELECT count(*)::int AS seats FROM ext_test_seats.seats WHERE board_id = :id', { id });
  t.is(seats, 3);
});

test.serial('without the lock the same rule breaks on PostgreSQL (the test above can fail)', async (t) => {
  const id = await board(3);
  await Promise.all(Array.from({ length: 8 }, (_, index) => ws.owner.post(path(`/boards/${id}/seats-unlocked`), { holder: `m${index}` })));
  const [{ seats }] = await platform.query<{ seats: number }>('SELECT count(*)::int AS seats FROM ext_test_seats.seats WHERE board_id = :id', { id });
  // The embedded database runs one transaction at a time, so the rule holds there by accident.
  if (onPostgres) t.true(seats > 3, `${seats} seats taken`);
  else t.is(seats, 3);
});

test.serial('a row lock (lock: "update") serialises read-modify-write of one row', async (t) => {
  const id = await board(1);
  await Promise.all(Array.from({ length: 6 }, () => ws.owner.post(path(`/boards/${id}/bumps`))));
  const [{ bumps }] = await platform.query<{ bumps: number }>('SELECT bumps FROM ext_test_seats.boards WHERE id = :id', { id });
  t.is(bumps, 6);
  const other = await board(1);
  await Promise.all(Array.from({ length: 6 }, () => ws.owner.post(path(`/boards/${other}/bumps-unlocked`))));
  const [{ bumps: lost }] = await platform.query<{ bumps: number }>('SELECT bumps FROM ext_test_seats.boards WHERE id = :id', { id: other });
  if (onPostgres) t.true(lost < 6, `${lost} bumps kept of 6`);
  else t.is(lost, 6);
});

test('relations read related rows of the same workspace only', async (t) => {
  const id = await board(5);
  for (const holder of ['ann', 'bob']) t.is((await ws.owner.post(path(`/boards/${id}/seats`), { holder })).status, 200);
  // A row of another workspace pointing at this board must never show.
  const other = await platform.workspace();
  await platform.query("INSERT INTO ext_test_seats.seats (id, workspace_id, board_id, holder) VALUES (gen_random_uuid(), :other, :id, 'intruder')", { other: other.id, id });
  const read = await ws.owner.get(path(`/boards/${id}`));
  t.is(read.status, 200);
  t.deepEqual(read.body.data.seats.map((seat: Seat) => seat.holder).sort(), ['ann', 'bob']);
  const seats = await ws.owner.get(path('/seats?per_page=100'));
  t.is(seats.status, 200, JSON.stringify(seats.body));
  const mine = seats.body.data.filter((seat: Seat & { board: Board }) => seat.board_id === id);
  t.deepEqual(
    mine.map((seat: Seat & { board: Board }) => [seat.holder, seat.board.name]),
    [
      ['ann', 'cap 5'],
      ['bob', 'cap 5'],
    ],
  );
  t.is(seats.body.pagination.total, seats.body.data.length);
});
