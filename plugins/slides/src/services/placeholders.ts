/**
 * The placeholders a new slide starts with, by layout: the server's (a slide written without
 * elements) and the front-end's (a slide added in the editor, written into the deck's document)
 * are this one function, so it imports nothing.
 */
export interface PlaceholderText {
  id: string;
  type: 'text';
  x: number;
  y: number;
  width: number;
  height: number;
  text: string;
  font_size: number;
  color: string;
  bold?: boolean;
  align?: 'left' | 'center' | 'right';
}

/** The placeholders a slide of `layout` starts with (a title slide names the deck). */
export function placeholders(layout: string, theme: { text: string; accent: string }, title = ''): PlaceholderText[] {
  const text = (id: string, x: number, y: number, width: number, height: number, value: string, fontSize: number, extra: Partial<PlaceholderText> = {}): PlaceholderText => ({ id, type: 'text', x, y, width, height, text: value, font_size: fontSize, color: theme.text, ...extra });
  switch (layout) {
    case 'title':
      return [text('title', 80, 240, 1120, 140, title, 60, { bold: true, align: 'center' }), text('subtitle', 80, 400, 1120, 80, '', 28, { align: 'center' })];
    case 'title_content':
      return [text('title', 60, 40, 1160, 100, '', 44, { bold: true }), text('body', 60, 170, 1160, 500, '', 28)];
    case 'two_content':
      return [text('title', 60, 40, 1160, 100, '', 44, { bold: true }), text('left', 60, 170, 560, 500, '', 24), text('right', 660, 170, 560, 500, '', 24)];
    case 'section':
      return [text('title', 80, 280, 1120, 160, '', 54, { bold: true, color: theme.accent })];
    case 'image':
      return [text('title', 60, 40, 1160, 100, '', 44, { bold: true })];
    default:
      return [];
  }
}
