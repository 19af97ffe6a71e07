/**
 * The PDF's pages drawn on canvases, with pdf.js. Loaded on demand (`await import('./pdfpages.js')`)
 * by the placement screens only, so the app's first load stays within the bundle budget; pdf.js's
 * worker is a file of the app's built assets (docs/ui.md, "budget"). In the app's sandboxed frame
 * (an opaque origin) the browser refuses a worker thread, so pdf.js runs that same file on the page.
 */
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist';
import workerFile from 'pdfjs-dist/build/pdf.worker.min.mjs';

GlobalWorkerOptions.workerSrc = new URL(workerFile, import.meta.url).href;

/** A page's size in PDF points. */
export interface PageSize { width: number; height: number }

/** An opened PDF: its pages' sizes, and drawing one. */
export interface PdfPages {
  sizes: PageSize[];
  /** Draws page `page` (1-based) on `canvas`, `pixelWidth` device pixels wide. */
  draw(page: number, canvas: HTMLCanvasElement, pixelWidth: number): Promise<void>;
  close(): Promise<void>;
}

/** Opens a PDF's bytes (copied: pdf.js takes its buffer over). */
export async function openPdf(bytes: Uint8Array): Promise<PdfPages> {
  const task = getDocument({ data: bytes.slice() });
  const doc = await task.promise;
  const sizes: PageSize[] = [];
  for (let number = 1; number <= doc.numPages; number++) {
    const viewport = (await doc.getPage(number)).getViewport({ scale: 1 });
    sizes.push({ width: viewport.width, height: viewport.height });
  }
  return {
    sizes,
    async draw(number, canvas, pixelWidth) {
      const page = await doc.getPage(number);
      const viewport = page.getViewport({ scale: pixelWidth / page.getViewport({ scale: 1 }).width });
      canvas.width = Math.round(viewport.width);
      canvas.height = Math.round(viewport.height);
      await page.render({ canvas, canvasContext: canvas.getContext('2d')!, viewport }).promise;
    },
    close: () => task.destroy(),
  };
}
