import { html, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';

/** A column's drop handlers, bound as `@dragover`, `@dragleave` and `@drop` on its element. */
export interface BoardColumnDrop {
  dragover: (event: DragEvent) => void;
  dragleave: () => void;
  drop: (event: DragEvent) => void;
}

/**
 * How a board's cards move between its columns (docs/ui.md, "Boards: `BoardMoves`"), for a screen
 * that draws its own columns and cards (a pipeline's stages, a board's lanes): a card is dragged
 * with its id, the column under it is marked (`over`) and hands the dropped id to the screen,
 * Alt+→ / Alt+← on a card name the next or previous column, and each move is said in a polite live
 * region. The screen makes the request and shows the card where it lands:
 *
 * ```ts
 * private readonly moves = new BoardMoves(this);
 * // a column: class=${this.moves.over === lane ? 'lane drop' : 'lane'}, and its handlers
 * const drop = this.moves.column(lane, (id) => this.moveById(id, lane));
 * html`<section @dragover=${drop.dragover} @dragleave=${drop.dragleave} @drop=${drop.drop}>…`;
 * // a card: @dragstart=${this.moves.drag(task.id)}, from the keyboard, and its list of the columns
 * const target = this.moves.step(event, lanes, task.lane);
 * html`${this.moves.select('Move to', lanes.map((lane) => ({ id: lane, name: lane })), task.lane, (lane) => void this.move(task, lane))}`;
 * // after a move: this.moves.say(`${task.key} moved to ${lane}`); at the end: ${this.moves.region()}
 * ```
 */
export class BoardMoves implements ReactiveController {
  /** The column a card is dragged over (the screen marks it), or null. */
  over: string | null = null;
  /** What the live region says. */
  announcement = '';

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected(): void {}

  /** A card's `@dragstart`: the drag carries the card's id, as a move. */
  drag(id: string): (event: DragEvent) => void {
    return (event) => {
      event.dataTransfer?.setData('text/plain', id);
      if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
    };
  }

  /** A column's drop handlers: marked while a card is over it; a card dropped on it gives its id to `dropped`. */
  column(id: string, dropped: (cardId: string) => void): BoardColumnDrop {
    return {
      dragover: (event) => {
        event.preventDefault();
        this.mark(id);
      },
      dragleave: () => this.mark(null),
      drop: (event) => {
        event.preventDefault();
        this.mark(null);
        dropped(event.dataTransfer?.getData('text/plain') ?? '');
      },
    };
  }

  /**
   * A card's key: for Alt+→ / Alt+← the column after or before `current` in `columns` (the key's
   * default prevented), undefined past either end; null for any other key.
   */
  step(event: KeyboardEvent, columns: readonly string[], current: string): string | undefined | null {
    if (!event.altKey || (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft')) return null;
    event.preventDefault();
    return columns[columns.indexOf(current) + (event.key === 'ArrowRight' ? 1 : -1)];
  }

  /** A card's list of the columns under `label` ("Stage", "Move to"), its own chosen: choosing another gives that column's id to `move`. */
  select(label: string, columns: ReadonlyArray<{ id: string; name: string }>, current: string | null, move: (id: string) => void): TemplateResult {
    return html`<label class="move">${label}
      <select @change=${(event: Event) => move((event.target as HTMLSelectElement).value)}>
        ${columns.map((column) => html`<option value=${column.id} ?selected=${column.id === current}>${column.name}</option>`)}
      </select>
    </label>`;
  }

  /** Says a move in the live region; cleared first, so the same words twice are said twice. */
  say(message: string): void {
    this.announcement = '';
    this.host.requestUpdate();
    requestAnimationFrame(() => {
      this.announcement = message;
      this.host.requestUpdate();
    });
  }

  /** The live region, visually hidden: once, after the columns. */
  region(): TemplateResult {
    return html`<p class="wpk-visually-hidden" role="status" aria-live="polite">${this.announcement}</p>`;
  }

  private mark(id: string | null): void {
    if (this.over === id) return;
    this.over = id;
    this.host.requestUpdate();
  }
}
