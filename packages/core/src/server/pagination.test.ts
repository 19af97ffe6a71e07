import test from 'ava';
import { parsePagination } from './pagination.js';

const cases: Array<[Record<string, unknown>, number, number]> = [
  [{}, 1, 25],
  [{ page: '3', per_page: '10' }, 3, 10],
  [{ page: '0' }, 1, 25],
  [{ page: '-3' }, 1, 25],
  [{ page: 'abc' }, 1, 25],
  [{ page: '1.5' }, 1, 25],
  [{ page: '' }, 1, 25],
  [{ per_page: '0' }, 1, 1],
  [{ per_page: '-5' }, 1, 1],
  [{ per_page: '101' }, 1, 100],
  [{ per_page: '1000' }, 1, 100],
  [{ per_page: 'abc' }, 1, 25],
  [{ per_page: '2.5' }, 1, 25],
  [{ per_page: '' }, 1, 25],
  [{ page: ['2', '4'] }, 4, 25],
];

for (const [query, page, perPage] of cases) {
  test(`pagination ${JSON.stringify(query)} resolves to page ${page}, per_page ${perPage}`, (t) => {
    const result = parsePagination(query);
    t.deepEqual(result, { page, perPage, offset: (page - 1) * perPage, limit: perPage });
  });
}
