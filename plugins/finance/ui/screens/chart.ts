import { LitElement, css, html, nothing, sharedStyles, svg } from '@wpk/ui';

/** One series of a bar chart: a name (the legend's) and one value per category. */
export interface ChartSeries {
  name: string;
  values: number[];
}

const WIDTH = 400;
const LABEL = 16;
const BAR = 13;
const GAP = 3;
const AFTER = 10;
const VALUE_ROOM = 84;

/**
 * `<finance-bar-chart>`: horizontal grouped bars drawn as SVG with Lit's `svg` templates (every
 * label and value is bound as text, never parsed as markup), no chart library. Each category is a
 * label and one bar per series, the bar's value written beside it. For assistive technology the SVG
 * is one image named by `label`, each bar carries its own title, and the screen's table next to the
 * chart holds the same figures (the chart is never the only place a number is).
 */
export class FinanceBarChart extends LitElement {
  static override properties = {
    label: { type: String },
    categories: { attribute: false },
    series: { attribute: false },
    format: { attribute: false },
  };
  declare label: string;
  declare categories: string[];
  declare series: ChartSeries[];
  declare format: (value: number) => string;

  constructor() {
    super();
    this.label = 'Chart';
    this.categories = [];
    this.series = [];
    this.format = (value) => String(value);
  }

  static override styles = [
    sharedStyles,
    css`
      :host { display: block; margin: var(--wpk-space-3) 0; }
      figure { margin: 0; }
      svg { display: block; width: 100%; height: auto; max-width: 36rem; }
      .category { fill: var(--wpk-color-text); font-size: 12px; font-weight: 600; }
      .value { fill: var(--wpk-color-text); font-size: 11px; }
      .axis { stroke: var(--wpk-color-border-strong); stroke-width: 1; }
      .s0 { fill: var(--wpk-color-brand); background: var(--wpk-color-brand); }
      .s1 { fill: var(--wpk-color-warning); background: var(--wpk-color-warning); }
      .s2 { fill: var(--wpk-color-success); background: var(--wpk-color-success); }
      .s3 { fill: var(--wpk-color-danger); background: var(--wpk-color-danger); }
      ul { display: flex; flex-wrap: wrap; gap: var(--wpk-space-3); list-style: none; margin: var(--wpk-space-2) 0 0; padding: 0; font-size: var(--wpk-font-size-s); }
      .swatch { display: inline-block; width: 0.9em; height: 0.9em; border-radius: 2px; margin-right: var(--wpk-space-1); vertical-align: -0.1em; }
    `,
  ];

  protected override render() {
    if (this.categories.length === 0) return nothing;
    const max = Math.max(0, ...this.series.flatMap((entry) => entry.values.filter(Number.isFinite)));
    const room = WIDTH - VALUE_ROOM;
    const block = LABEL + this.series.length * (BAR + GAP) + AFTER;
    const height = this.categories.length * block;
    const bars = this.categories.map((category, index) => {
      const top = index * block;
      return svg`<text class="category" x="0" y=${top + 12}>${category}</text>
        ${this.series.map((entry, seriesIndex) => {
          const value = entry.values[index] ?? 0;
          const length = max > 0 ? Math.max(0, (value / max) * room) : 0;
          const y = top + LABEL + seriesIndex * (BAR + GAP);
          return svg`<rect class=${`s${seriesIndex % 4}`} x="1" y=${y} width=${Math.max(length, value > 0 ? 2 : 0)} height=${BAR} rx="2"><title>${`${category}, ${entry.name}: ${this.format(value)}`}</title></rect>
            <text class="value" x=${length + 6} y=${y + BAR - 3}>${this.format(value)}</text>`;
        })}`;
    });
    return html`<figure>
      <svg viewBox=${`0 0 ${WIDTH} ${height}`} role="img" aria-label=${this.label} preserveAspectRatio="xMinYMin meet">
        ${bars}
        <line class="axis" x1="0.5" y1="0" x2="0.5" y2=${height}></line>
      </svg>
      ${this.series.length > 1
        ? html`<ul aria-label="Legend">${this.series.map((entry, index) => html`<li><span class=${`swatch s${index % 4}`}></span>${entry.name}</li>`)}</ul>`
        : nothing}
    </figure>`;
  }
}

customElements.define('finance-bar-chart', FinanceBarChart);
