import { useEffect, useRef, useState } from 'react';
import { loadMarkdownRenderer, type MarkdownRenderer } from './markdown-render';
import './markdown-preview.css';

type MarkdownPreviewProps = {
  /** Reads the current source text (the editor's). */
  readText: () => string;
  /** Bumped on every edit; the preview follows after a short pause. */
  revision: number;
  resolveImage: (source: string) => string | undefined;
  label: string;
  loadingLabel: string;
};

/** Large documents re-render less often so typing stays smooth. */
function delayFor(length: number): number {
  return length > 200_000 ? 1200 : length > 20_000 ? 400 : 120;
}

/**
 * The rendered, sanitised form of a Markdown source. The renderer (marked + DOMPurify) is fetched
 * on first use; the HTML it returns has no script, handler or dangerous link left.
 */
export function MarkdownPreview({ readText, revision, resolveImage, label, loadingLabel }: MarkdownPreviewProps) {
  const [renderer, setRenderer] = useState<MarkdownRenderer | null>(null);
  const [html, setHtml] = useState('');
  const readRef = useRef(readText);
  readRef.current = readText;
  const resolverRef = useRef(resolveImage);
  resolverRef.current = resolveImage;

  useEffect(() => {
    let isCancelled = false;
    void loadMarkdownRenderer((source) => resolverRef.current(source)).then((render) => {
      if (!isCancelled) setRenderer(() => render);
    });
    return () => {
      isCancelled = true;
    };
  }, []);

  useEffect(() => {
    if (!renderer) return;
    const text = readRef.current();
    const timer = setTimeout(() => setHtml(renderer(text)), revision === 0 ? 0 : delayFor(text.length));
    return () => clearTimeout(timer);
  }, [renderer, revision]);

  return (
    <section className="markdown-preview" aria-label={label} aria-busy={!renderer} tabIndex={0}>
      {renderer ? (
        // Sanitised above: DOMPurify with scripts, handlers and unsafe URLs removed.
        <div className="markdown-preview__body" dangerouslySetInnerHTML={{ __html: html }} />
      ) : (
        <p className="markdown-preview__loading">{loadingLabel}</p>
      )}
    </section>
  );
}
