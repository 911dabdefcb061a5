import { ImageOff, Minus, Plus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useZoomPan, type SwipeDirection } from './use-zoom-pan';
import './image-viewer.css';

type ImageViewerProps = {
  /** Alternative text: the file name. */
  name: string;
  /** A small, quickly served rendition shown while the real image loads. */
  thumbUrl?: string;
  /** What is shown: the resized preview, or the file itself. */
  displayUrl: string;
  /** The original, fetched once the user zooms in past the resized preview's detail. */
  fullUrl?: string;
  labels: { zoomIn: string; zoomOut: string; resetZoom: string; controls: string; loadError: string };
  onSwipe?: (direction: SwipeDirection) => void;
};

type Size = { width: number; height: number };

/** Zoom level from which the original replaces the resized preview. */
const FullDetailScale = 1.6;

function fit(natural: Size, box: Size): Size {
  const ratio = Math.min(1, box.width / natural.width, box.height / natural.height);
  return { width: Math.max(1, Math.floor(natural.width * ratio)), height: Math.max(1, Math.floor(natural.height * ratio)) };
}

/**
 * An image fitted into its box (never enlarged), with zoom by wheel, pinch, double click or the
 * buttons, and panning while enlarged. A thumbnail stands in until the image has loaded.
 */
export function ImageViewer({ name, thumbUrl, displayUrl, fullUrl, labels, onSwipe }: ImageViewerProps) {
  const boxRef = useRef<HTMLDivElement>(null);
  const imageRef = useRef<HTMLImageElement>(null);
  const [box, setBox] = useState<Size | null>(null);
  const [natural, setNatural] = useState<Size | null>(null);
  const [hasFailed, setFailed] = useState(false);
  const [isFullLoaded, setFullLoaded] = useState(false);
  const { view, zoomBy, reset, handlers } = useZoomPan(boxRef, imageRef, onSwipe);

  useEffect(() => {
    const element = boxRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setBox({ width: element.clientWidth, height: element.clientHeight }));
    observer.observe(element);
    setBox({ width: element.clientWidth, height: element.clientHeight });
    return () => observer.disconnect();
  }, []);

  // Fetch the original only when the detail is wanted, then swap it in at the same size.
  const wantsFull = Boolean(fullUrl) && fullUrl !== displayUrl && view.scale >= FullDetailScale;
  useEffect(() => {
    if (!wantsFull || isFullLoaded || !fullUrl) return;
    const loader = new Image();
    loader.onload = () => setFullLoaded(true);
    loader.src = fullUrl;
    return () => {
      loader.onload = null;
    };
  }, [wantsFull, isFullLoaded, fullUrl]);

  const size = natural && box ? fit(natural, box) : null;
  const isLoaded = size !== null;
  const source = isFullLoaded && fullUrl ? fullUrl : displayUrl;
  const percent = Math.round(view.scale * 100);

  return (
    <div className="image-viewer" data-loaded={isLoaded} data-zoomed={view.scale > 1}>
      <div ref={boxRef} className="image-viewer__box" {...handlers}>
        {thumbUrl && !isLoaded && !hasFailed && <img className="image-viewer__thumb" src={thumbUrl} alt="" aria-hidden="true" draggable={false} />}
        {!hasFailed && (
          <img
            ref={imageRef}
            className="image-viewer__image"
            src={source}
            alt={name}
            draggable={false}
            decoding="async"
            style={{
              width: size?.width,
              height: size?.height,
              transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
            }}
            onLoad={(event) => {
              const image = event.currentTarget;
              // Keep the first (display) image's proportions; the original only adds detail.
              if (!natural && image.naturalWidth > 0) setNatural({ width: image.naturalWidth, height: image.naturalHeight });
            }}
            onError={() => {
              if (source === displayUrl) setFailed(true);
              else setFullLoaded(false);
            }}
          />
        )}
        {!isLoaded && !hasFailed && <div className="spinner image-viewer__spinner" aria-hidden="true" />}
        {hasFailed && (
          <p className="image-viewer__error" role="alert">
            <ImageOff aria-hidden="true" size={40} strokeWidth={1.5} />
            <span>{labels.loadError}</span>
          </p>
        )}
      </div>
      {isLoaded && (
        <div className="image-viewer__controls" role="group" aria-label={labels.controls}>
          <button type="button" className="icon-button" aria-label={labels.zoomOut} title={labels.zoomOut} disabled={view.scale <= 1} onClick={() => zoomBy(1 / 1.5)}>
            <Minus aria-hidden="true" size={18} />
          </button>
          {/* Its name starts with the zoom it shows (WCAG 2.5.3), then says what it does. */}
          <button type="button" className="image-viewer__percent" aria-label={`${percent}%, ${labels.resetZoom}`} title={labels.resetZoom} onClick={reset}>
            {percent}%
          </button>
          <button type="button" className="icon-button" aria-label={labels.zoomIn} title={labels.zoomIn} disabled={view.scale >= 8} onClick={() => zoomBy(1.5)}>
            <Plus aria-hidden="true" size={18} />
          </button>
        </div>
      )}
    </div>
  );
}
