import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { QuoteLine } from '../models/index.js';

/** What a quote's PDF shows. */
export interface QuoteSheet {
  number: string;
  workspace: string;
  deal: string;
  customer: string | null;
  issued: string;
  valid_until: string | null;
  currency: string;
  lines: QuoteLine[];
  total: string;
  notes: string;
  /** Fixes the document's dates so the same quote always gives the same bytes (its hash is sent for signature). */
  created_at: Date;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;

/** The standard fonts draw WinAnsi only: anything else is shown as `?`. */
const printable = (text: string): string => text.replace(/[^\x20-\x7e\u00a0-\u00ff\u20ac]/g, '?');

/** Cuts text to fit `width` at `size`, with an ellipsis. */
function fit(font: PDFFont, text: string, size: number, width: number): string {
  let value = printable(text);
  if (font.widthOfTextAtSize(value, size) <= width) return value;
  while (value.length > 1 && font.widthOfTextAtSize(`${value}...`, size) > width) value = value.slice(0, -1);
  return `${value}...`;
}

/** A quote as a PDF (A4, pdf-lib, standard Helvetica): header, customer, lines, total, notes. */
export async function quotePdf(sheet: QuoteSheet): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Quote ${sheet.number}`);
  pdf.setSubject(sheet.deal);
  pdf.setProducer('Workspace Platform Kit crm');
  pdf.setCreator('crm');
  pdf.setCreationDate(sheet.created_at);
  pdf.setModificationDate(sheet.created_at);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let page: PDFPage = pdf.addPage(A4);
  let y = A4[1] - MARGIN;
  const text = (value: string, x: number, size = 10, font = regular, width = A4[0] - MARGIN - x) => page.drawText(fit(font, value, size, width), { x, y, size, font, color: rgb(0.12, 0.16, 0.2) });
  const right = (value: string, edge: number, size = 10, font = regular) => page.drawText(printable(value), { x: edge - font.widthOfTextAtSize(printable(value), size), y, size, font });

  text(sheet.workspace, MARGIN, 12, bold);
  right(`Quote ${sheet.number}`, A4[0] - MARGIN, 18, bold);
  y -= 28;
  text(`Deal: ${sheet.deal}`, MARGIN);
  right(`Issued ${sheet.issued}`, A4[0] - MARGIN);
  y -= 14;
  if (sheet.customer) text(`For: ${sheet.customer}`, MARGIN);
  if (sheet.valid_until) right(`Valid until ${sheet.valid_until}`, A4[0] - MARGIN);
  y -= 30;

  const columns = { description: MARGIN, quantity: 360, price: 450, amount: A4[0] - MARGIN };
  const header = () => {
    text('Description', columns.description, 10, bold);
    right('Qty', columns.quantity + 30, 10, bold);
    right('Unit price', columns.price + 40, 10, bold);
    right(`Amount (${sheet.currency})`, columns.amount, 10, bold);
    y -= 6;
    page.drawLine({ start: { x: MARGIN, y }, end: { x: A4[0] - MARGIN, y }, thickness: 0.7, color: rgb(0.6, 0.6, 0.6) });
    y -= 14;
  };
  header();
  for (const line of sheet.lines) {
    if (y < MARGIN + 80) {
      page = pdf.addPage(A4);
      y = A4[1] - MARGIN;
      header();
    }
    text(line.description, columns.description, 10, regular, columns.quantity - columns.description - 40);
    right(line.quantity, columns.quantity + 30);
    right(line.unit_price, columns.price + 40);
    right(line.amount, columns.amount);
    y -= 16;
  }
  page.drawLine({ start: { x: 330, y: y + 6 }, end: { x: A4[0] - MARGIN, y: y + 6 }, thickness: 0.7, color: rgb(0.6, 0.6, 0.6) });
  y -= 8;
  right(`Total ${sheet.total} ${sheet.currency}`, A4[0] - MARGIN, 12, bold);
  y -= 30;
  for (const paragraph of sheet.notes ? sheet.notes.split('\n').slice(0, 20) : []) {
    if (y < MARGIN) break;
    text(paragraph, MARGIN, 9);
    y -= 12;
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}
