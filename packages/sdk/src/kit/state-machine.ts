import { ConflictError, InvalidError } from '../errors.js';

/** One move of a state machine: the states it leaves from, the state it reaches, the event it emits. */
export interface StateMove<S extends string> {
  /** The states the move may start from. */
  from: readonly S[];
  /** The state it reaches. */
  to: S;
  /** The event a successful move emits (`core.finance.bill.approved`), if any. */
  event?: string;
}

/** What `defineStateMachine` takes. */
export interface StateMachineSpec<S extends string, Mv extends string> {
  /** The thing that moves, as messages name it (`bill`, `job`, `offer`). */
  name: string;
  /** Every state, in the order the docs list them. */
  states: readonly S[];
  /** The state a new record starts in. */
  initial: S;
  /** The moves, by name (`receive`, `approve`, `void`). */
  moves: Record<Mv, StateMove<S>>;
}

/** The outcome of a move that is allowed: where it leaves from, where it goes, and what it emits. */
export interface Transition<S extends string, Mv extends string> {
  move: Mv;
  from: S;
  to: S;
  /** The event to stage once the write succeeded (undefined when the move emits none). */
  event: string | undefined;
}

/** A declared state machine: the one place that says which moves are allowed, and how a refusal reads. */
export interface StateMachine<S extends string, Mv extends string> {
  readonly name: string;
  readonly states: readonly S[];
  readonly initial: S;
  readonly moves: Readonly<Record<Mv, StateMove<S>>>;
  /** True when `move` may start from `state`. */
  can(state: S, move: Mv): boolean;
  /**
   * The transition of `move` from `state`; 409 naming both states when the move may not start
   * there (`Cannot approve a bill in state draft: approve moves from received to approved`).
   */
  move(state: S, move: Mv): Transition<S, Mv>;
  /**
   * The transition that takes a record from `state` to `target` (a `PATCH … {"status": …}`
   * names the target, not the move): 400 for a target that is no state, 409 naming both states
   * when no move leads there from `state`. Moving to the state it is in is a 409 too.
   */
  moveTo(state: S, target: string): Transition<S, Mv>;
  /** The moves that may start from `state`, in declaration order. */
  movesFrom(state: S): Mv[];
}

/**
 * Declares a state machine (a bill's `draft → received → approved`, a job's `draft → open`):
 * the allowed moves, the 409 message naming both states, the event each move emits. Services call
 * `machine.move(record.status, 'approve')` or `machine.moveTo(record.status, body.status)` and
 * stage `transition.event` after the write. Checked when declared: every state named by a move
 * is a state, and the initial state is one.
 */
export function defineStateMachine<S extends string, Mv extends string>(spec: StateMachineSpec<S, Mv>): StateMachine<S, Mv> {
  const states = new Set<string>(spec.states);
  if (states.size !== spec.states.length) throw new TypeError(`defineStateMachine(${spec.name}): a state is listed twice`);
  if (!states.has(spec.initial)) throw new TypeError(`defineStateMachine(${spec.name}): the initial state ${spec.initial} is not a state`);
  const moves = Object.entries(spec.moves) as Array<[Mv, StateMove<S>]>;
  for (const [name, move] of moves) {
    for (const state of [...move.from, move.to]) if (!states.has(state)) throw new TypeError(`defineStateMachine(${spec.name}): move ${name} names ${state}, which is not a state`);
    if (move.from.length === 0) throw new TypeError(`defineStateMachine(${spec.name}): move ${name} starts from no state`);
  }
  const transition = (move: Mv, from: S): Transition<S, Mv> => ({ move, from, to: spec.moves[move].to, event: spec.moves[move].event });
  // "an offer", "an interview": the article follows the name's first letter.
  const thing = `${/^[aeiou]/i.test(spec.name) ? 'an' : 'a'} ${spec.name}`;
  const machine: StateMachine<S, Mv> = {
    name: spec.name,
    states: Object.freeze([...spec.states]),
    initial: spec.initial,
    moves: Object.freeze({ ...spec.moves }),
    can: (state, move) => Object.hasOwn(spec.moves, move) && spec.moves[move].from.includes(state),
    move(state, move) {
      if (!Object.hasOwn(spec.moves, move)) throw new TypeError(`${spec.name} has no move ${String(move)}`);
      const declared = spec.moves[move];
      if (!declared.from.includes(state)) throw new ConflictError(`Cannot ${move} ${thing} in state ${state}: ${move} moves from ${declared.from.join(' or ')} to ${declared.to}`);
      return transition(move, state);
    },
    moveTo(state, target) {
      if (!states.has(target)) throw new InvalidError(`status must be one of ${spec.states.join(', ')}`);
      if (target === state) throw new ConflictError(`The ${spec.name} is already ${state}`);
      const found = moves.find(([, move]) => move.to === target && move.from.includes(state));
      if (!found) {
        const sources = [...new Set(moves.filter(([, move]) => move.to === target).flatMap(([, move]) => move.from))];
        const reached = sources.length ? `${target} is reached from ${sources.join(' or ')}` : `nothing moves to ${target}`;
        throw new ConflictError(`Cannot move ${thing} from ${state} to ${target}: ${reached}`);
      }
      return transition(found[0], state);
    },
    movesFrom: (state) => moves.filter(([, move]) => move.from.includes(state)).map(([name]) => name),
  };
  return Object.freeze(machine);
}
