declare module 'fast-formula-parser' {
  interface CellRef { sheet: string; row: number; col: number }
  interface Options {
    onCell?: (ref: CellRef) => unknown;
    onRange?: (ref: { sheet: string; from: { row: number; col: number }; to: { row: number; col: number } }) => unknown[][];
    functions?: Record<string, (...args: Array<{ value: unknown; isArray?: boolean }>) => unknown>;
  }
  export class FormulaError extends Error {
    constructor(error: string, details?: unknown);
    readonly error: string;
  }
  export default class FormulaParser {
    constructor(options?: Options);
    parse(formula: string, position: CellRef, allowReturnArray?: boolean): unknown;
    static FormulaError: typeof FormulaError;
  }
}
