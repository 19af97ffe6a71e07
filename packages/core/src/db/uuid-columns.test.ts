import test from 'ava';
import { DataTypes, Op, Sequelize } from 'sequelize';
import { assertUuidValues, uuidColumns, uuidSafeWhere } from './uuid-columns.js';

// SQL generation only: no connection is opened.
const sequelize = new Sequelize('postgres://nobody@127.0.0.1:1/none', { logging: false });
const Task = sequelize.define('task', { id: { type: DataTypes.UUID, primaryKey: true }, board_id: DataTypes.UUID, title: DataTypes.STRING });
const columns = uuidColumns(Task);
const sql = (where: object) => (sequelize.getQueryInterface() as unknown as { queryGenerator: { whereQuery(where: object, options: object): string } }).queryGenerator.whereQuery(uuidSafeWhere(where, columns), { model: Task });
const UUID = '8d6c1b1e-6a8e-4d8e-9a53-0f7f1d1c2b3a';

test('the UUID columns of a model are known', (t) => {
  t.deepEqual([...columns].sort(), ['board_id', 'id']);
});

test('on a UUID column a string that is no UUID matches nothing, as a text comparison would', (t) => {
  t.is(sql({ id: '42' }), 'WHERE "id" IN (NULL)');
  t.is(sql({ id: UUID }), `WHERE "id" = '${UUID}'`);
  t.is(sql({ id: { [Op.eq]: "x' OR 1=1" } }), 'WHERE "id" IN (NULL)');
  t.is(sql({ id: { [Op.ne]: 'nope' } }), 'WHERE "id" IS NOT NULL');
  t.is(sql({ id: { [Op.in]: ['nope', UUID] } }), `WHERE "id" IN ('${UUID}')`);
  t.is(sql({ board_id: ['nope'] }), 'WHERE "board_id" IN (NULL)');
  t.is(sql({ [Op.and]: [{ board_id: 'b' }, { [Op.or]: [{ id: 'x' }, { title: 'x' }] }] }), `WHERE ("board_id" IN (NULL) AND ("id" IN (NULL) OR "title" = 'x'))`);
  t.is(sql({ title: '42' }), `WHERE "title" = '42'`);
});

test('a write of a string that is no UUID into a UUID column is a 400 naming the column', (t) => {
  t.notThrows(() => assertUuidValues({ id: UUID, board_id: null, title: 'not an id' }, columns));
  t.throws(() => assertUuidValues({ board_id: 'b-1' }, columns), { message: 'board_id: b-1 is not an id of this workspace' });
});
