/**
 * Formulas: Excel's language, parsed and evaluated by fast-formula-parser, with the functions it
 * lacks taken from @formulajs/formulajs. A formula names fields in braces, `{Price} * {Quantity}`;
 * it is kept with field ids (`{3f2c…}`), so renaming a field never breaks it, and shown with names.
 */
import * as formulajs from '@formulajs/formulajs';
import FormulaParser from 'fast-formula-parser';

/** Functions fast-formula-parser does not implement, taken from formulajs. */
const BORROWED = ['TEXTJOIN', 'UPPER', 'MAX', 'MIN', 'SWITCH', 'VALUE', 'SUBSTITUTE', 'MEDIAN', 'DAYS', 'CONCAT'] as const;

const borrowed = Object.fromEntries(
  BORROWED.map((name) => [
    name,
    (...args: Array<{ value: unknown }>) => {
      const result = (formulajs as unknown as Record<string, (...values: unknown[]) => unknown>)[name]!(...args.map((arg) => arg.value));
      if (result instanceof Error) throw new FormulaParser.FormulaError(result.message);
      return result;
    },
  ]),
);

/** A formula as stored: the text with `{field_id}` references, and the ids it names in order. */
export interface CompiledFormula {
  text: string;
  references: string[];
}

/** Splits a formula into string literals (kept as they are) and the code between them. */
function scan(expression: string, onCode: (code: string) => string): string {
  let out = '';
  let index = 0;
  while (index < expression.length) {
    const quote = expression.indexOf('"', index);
    if (quote === -1) {
      out += onCode(expression.slice(index));
      break;
    }
    out += onCode(expression.slice(index, quote));
    let end = quote + 1;
    for (;;) {
      const next = expression.indexOf('"', end);
      if (next === -1) throw new Error('a string is not closed');
      if (expression[next + 1] === '"') end = next + 2;
      else {
        end = next + 1;
        break;
      }
    }
    out += expression.slice(quote, end);
    index = end;
  }
  return out;
}

const REFERENCE = /\{([^{}]+)\}/g;

/** The spreadsheet column letters of the nth reference (0 → A, 26 → AA). */
function column(index: number): string {
  let name = '';
  let n = index + 1;
  while (n > 0) {
    const rest = (n - 1) % 26;
    name = String.fromCharCode(65 + rest) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/** The parser with cells read from `values` (the nth reference is column n of row 1). */
function parser(values: unknown[]): FormulaParser {
  return new FormulaParser({ onCell: ({ col }) => values[col - 1], functions: borrowed });
}

const POSITION = { sheet: 'record', row: 1, col: 1 };

/** Evaluates a compiled formula with one value per reference; an Excel error answers its code (`#DIV/0!`). */
export function evaluate(formula: CompiledFormula, values: unknown[]): string | number | boolean | null {
  const code = scan(formula.text, (part) => part.replace(REFERENCE, (_whole, id: string) => `${column(formula.references.indexOf(id))}1`));
  try {
    const result = parser(values).parse(code, POSITION);
    return plain(result);
  } catch (error) {
    if (error instanceof FormulaParser.FormulaError) return error.error;
    return '#ERROR!';
  }
}

/** A parser result as a cell value. */
function plain(result: unknown): string | number | boolean | null {
  if (result instanceof FormulaParser.FormulaError) return result.error;
  if (Array.isArray(result)) return plain(result.flat(2)[0]);
  if (typeof result === 'number') return Number.isFinite(result) ? result : '#NUM!';
  if (typeof result === 'string' || typeof result === 'boolean') return result;
  if (result instanceof Date) return result.toISOString().slice(0, 10);
  return null;
}

/**
 * Compiles a formula typed with field names: every `{Name}` must name a field of the table
 * (case-insensitive), and the formula must parse. Throws an Error whose message says what is wrong.
 */
export function compile(expression: string, fieldsByName: ReadonlyMap<string, string>): CompiledFormula {
  const references: string[] = [];
  const text = scan(expression, (part) =>
    part.replace(REFERENCE, (_whole, name: string) => {
      const id = fieldsByName.get(name.trim().toLowerCase());
      if (!id) throw new Error(`{${name}} names no field of this table`);
      if (!references.includes(id)) references.push(id);
      return `{${id}}`;
    }),
  );
  let stray = false;
  scan(text, (part) => {
    if (/[{}]/.test(part.replace(REFERENCE, ''))) stray = true;
    return part;
  });
  if (stray) throw new Error('a brace is not matched: name a field as {Field name}');
  const formula = { text, references };
  const code = scan(text, (part) => part.replace(REFERENCE, (_whole, id: string) => `${column(references.indexOf(id))}1`));
  try {
    parser(references.map(() => 1)).parse(code, POSITION);
  } catch (error) {
    if (!(error instanceof FormulaParser.FormulaError) || error.error === '#ERROR!' || /not implemented/.test(error.message)) {
      const message = String((error as Error).message);
      throw new Error(/not implemented/.test(message) ? message.trim() : 'it does not parse (an operator, a parenthesis or an argument is missing)', { cause: error });
    }
  }
  return formula;
}

/** The formula as a member reads it, with field names (a reference to a deleted field shows {deleted field}). */
export function render(formula: CompiledFormula, namesById: ReadonlyMap<string, string>): string {
  return scan(formula.text, (part) => part.replace(REFERENCE, (_whole, id: string) => `{${namesById.get(id) ?? 'deleted field'}}`));
}
