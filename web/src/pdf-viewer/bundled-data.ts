import jbig2Wasm from 'pdfjs-dist/wasm/jbig2.wasm?url&no-inline';
import openjpegWasm from 'pdfjs-dist/wasm/openjpeg.wasm?url&no-inline';

/*
 * Data files pdf.js asks for while reading a document: character maps (CJK text whose fonts are
 * not embedded), the Symbol and Dingbats fonts, and the JPEG 2000 and JBIG2 decoders. They are
 * hashed assets like the scripts, each fetched only when a document needs it; `no-inline` keeps
 * small ones from being inlined into this chunk.
 */
const cMaps = import.meta.glob<string>('pdfjs-dist-files/cmaps/*.bcmap', { query: '?url&no-inline', import: 'default', eager: true });
const standardFonts = import.meta.glob<string>('pdfjs-dist-files/standard_fonts/*.{pfb,ttf}', { query: '?url&no-inline', import: 'default', eager: true });

function byFileName(files: Record<string, string>): Map<string, string> {
  return new Map(Object.entries(files).map(([file, url]) => [file.slice(file.lastIndexOf('/') + 1), url]));
}

const tables = {
  cMapUrl: byFileName(cMaps),
  standardFontDataUrl: byFileName(standardFonts),
  wasmUrl: new Map([
    ['jbig2.wasm', jbig2Wasm],
    ['openjpeg.wasm', openjpegWasm],
  ]),
} as const;

/**
 * pdf.js's `BinaryDataFactory`: looks files up by name among the bundled assets instead of below
 * a base URL (hashed names have no common folder to point at). Only known names are fetched.
 */
export class BundledDataFactory {
  async fetch({ kind, filename }: { kind: string; filename: string }): Promise<Uint8Array> {
    const url = kind in tables ? tables[kind as keyof typeof tables].get(filename) : undefined;
    if (!url) throw new Error(`no bundled ${kind} file ${filename}`);
    const response = await fetch(new URL(url, import.meta.url), { credentials: 'omit' });
    if (!response.ok) throw new Error(`${filename}: ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
}
