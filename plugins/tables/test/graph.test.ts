/** The cycle check of computed fields over random field graphs (fast-check). */
import test from 'ava';
import fc from 'fast-check';
import { orderFields } from '../src/formula/graph.js';

/** A random graph: n fields, each reading some of the others (and sometimes a plain field outside the graph). */
const graphs = fc.integer({ min: 1, max: 9 }).chain((size) =>
  fc.array(fc.array(fc.integer({ min: 0, max: size }), { maxLength: 4 }), { minLength: size, maxLength: size }).map((reads) => new Map(reads.map((targets, index) => [`f${index}`, targets.map((target) => `f${target}`)]))),
);

/** Whether a graph has a cycle, by Kahn's algorithm (a different method from the one tested). */
function hasCycle(graph: Map<string, string[]>): boolean {
  const indegree = new Map([...graph.keys()].map((id) => [id, 0]));
  for (const reads of graph.values()) for (const target of new Set(reads)) if (graph.has(target)) indegree.set(target, indegree.get(target)! + 1);
  const ready = [...indegree].filter(([, count]) => count === 0).map(([id]) => id);
  let seen = 0;
  while (ready.length) {
    const id = ready.pop()!;
    seen += 1;
    for (const target of new Set(graph.get(id))) {
      if (!graph.has(target)) continue;
      indegree.set(target, indegree.get(target)! - 1);
      if (indegree.get(target) === 0) ready.push(target);
    }
  }
  return seen !== graph.size;
}

test('a cycle is found exactly when there is one, and it is a real path of the graph back to its start', (t) => {
  fc.assert(
    fc.property(graphs, (graph) => {
      const result = orderFields(graph);
      if (!hasCycle(graph)) return result.cycle === null;
      if (!result.cycle) return false;
      const path = result.cycle;
      return path.length >= 2 && path[0] === path.at(-1) && path.slice(1).every((id, index) => graph.get(path[index]!)!.includes(id));
    }),
    { numRuns: 500 },
  );
  t.pass();
});

test('without a cycle, every field comes after each field of the graph it reads, once', (t) => {
  fc.assert(
    fc.property(graphs, (graph) => {
      const result = orderFields(graph);
      if (!result.order) return hasCycle(graph);
      const at = new Map(result.order.map((id, index) => [id, index]));
      return result.order.length === graph.size && at.size === graph.size && [...graph].every(([id, reads]) => reads.every((target) => !graph.has(target) || at.get(target)! < at.get(id)!));
    }),
    { numRuns: 500 },
  );
  t.pass();
});

test('a self-reference and a three-field loop are named as paths', (t) => {
  t.deepEqual(orderFields(new Map([['a', ['a']]])).cycle, ['a', 'a']);
  t.deepEqual(orderFields(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', []]])).cycle, ['a', 'b', 'c', 'a']);
  t.deepEqual(orderFields(new Map([['total', ['tax', 'price']], ['tax', ['price']]])).order, ['tax', 'total']);
});
