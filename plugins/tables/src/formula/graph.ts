/**
 * The dependency graph of a table's computed fields: a formula depends on the fields it names, a
 * lookup or a rollup on its link field. Pure, so a property test can throw random graphs at it.
 */

/** Field id → the field ids it reads. */
export type DependencyGraph = ReadonlyMap<string, readonly string[]>;

/** The answer: an order where every field comes after what it reads, or a cycle (first = last). */
export type Ordering = { order: string[]; cycle: null } | { order: null; cycle: string[] };

/**
 * Orders the graph's fields so that each follows the fields it reads (depth-first, in the map's
 * order, so the answer is deterministic), or names one cycle as a path `a → b → … → a`. Reads of
 * ids the graph does not hold (plain fields) are ignored.
 */
export function orderFields(graph: DependencyGraph): Ordering {
  const state = new Map<string, 'open' | 'done'>();
  const order: string[] = [];
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    const seen = state.get(id);
    if (seen === 'done') return null;
    if (seen === 'open') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'open');
    stack.push(id);
    for (const next of graph.get(id) ?? []) {
      if (!graph.has(next)) continue;
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(id, 'done');
    order.push(id);
    return null;
  };
  for (const id of graph.keys()) {
    const cycle = visit(id);
    if (cycle) return { order: null, cycle };
  }
  return { order, cycle: null };
}
