// A lead's photos for staff: a grid of thumbnails, each a plain link to the full-size photo
// (all that is needed with JavaScript off). Hydrated, a click opens a full-size viewer in a
// modal <dialog>: previous/next, zoom, and the keyboard (← → to move, + − 0 to zoom, Esc to
// close). Photos the worker refused or has not processed yet are tiles that say so.
import { useEffect, useRef, useState } from "react";

const ZOOMS = [1, 1.5, 2, 3];
// Classes, not style attributes: the site's CSP allows no inline styles.
const ZOOM_WIDTHS = ["", "w-[150%]", "w-[200%]", "w-[300%]"];

function Tile({ photo, index, onOpen }) {
  if (!photo.thumb) {
    return (
      <li className="flex aspect-square items-center justify-center rounded-xl border border-dashed border-ink-200 bg-ink-50 p-3 text-center text-xs text-ink-600">
        {photo.label}: {photo.problem}
      </li>
    );
  }
  return (
    <li>
      <a
        href={photo.full}
        onClick={(event) => onOpen(event, index)}
        className="group block overflow-hidden rounded-xl border border-ink-100 bg-ink-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-600"
      >
        <img
          src={photo.thumb}
          alt={photo.label}
          width={photo.thumbWidth}
          height={photo.thumbHeight}
          loading="lazy"
          className="aspect-square h-auto w-full object-cover transition-transform group-hover:scale-105"
        />
      </a>
    </li>
  );
}

const button =
  "rounded-full bg-white/10 px-3 py-1.5 text-sm font-semibold text-white hover:bg-white/20 disabled:opacity-40 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-500";

export default function PhotoViewer({ photos }) {
  const viewable = photos.filter((photo) => photo.thumb);
  const [current, setCurrent] = useState(null);
  const [zoom, setZoom] = useState(0);
  const dialog = useRef(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (current !== null && !element.open) element.showModal();
    if (current === null && element.open) element.close();
  }, [current]);

  if (photos.length === 0) {
    return <p className="text-sm text-ink-600">The seller sent no photos.</p>;
  }

  const open = (event, index) => {
    event.preventDefault();
    setZoom(0);
    setCurrent(viewable.indexOf(photos[index]));
  };
  const step = (by) => {
    setZoom(0);
    setCurrent((index) => (index + by + viewable.length) % viewable.length);
  };
  const zoomTo = (level) => setZoom(Math.max(0, Math.min(ZOOMS.length - 1, level)));
  const onKeyDown = (event) => {
    const actions = {
      ArrowRight: () => step(1),
      ArrowLeft: () => step(-1),
      "+": () => zoomTo(zoom + 1),
      "=": () => zoomTo(zoom + 1),
      "-": () => zoomTo(zoom - 1),
      0: () => zoomTo(0),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  const photo = current === null ? null : viewable[current];
  return (
    <>
      <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {photos.map((item, index) => (
          <Tile key={item.id} photo={item} index={index} onOpen={open} />
        ))}
      </ul>
      <dialog
        ref={dialog}
        aria-label="Photo viewer"
        onClose={() => setCurrent(null)}
        onKeyDown={onKeyDown}
        className="m-0 h-full max-h-none w-full max-w-none bg-ink-950/95 p-0 text-white backdrop:bg-ink-950/80"
      >
        {photo && (
          <div className="flex h-full flex-col">
            <div className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
              <p className="text-sm" aria-live="polite">
                {photo.label} · {current + 1} of {viewable.length} · {ZOOMS[zoom] * 100}%
              </p>
              <div className="flex flex-wrap gap-2">
                <button type="button" className={button} onClick={() => step(-1)} disabled={viewable.length < 2}>
                  ← Previous
                </button>
                <button type="button" className={button} onClick={() => step(1)} disabled={viewable.length < 2}>
                  Next →
                </button>
                <button type="button" className={button} onClick={() => zoomTo(zoom - 1)} disabled={zoom === 0} aria-label="Zoom out">
                  −
                </button>
                <button type="button" className={button} onClick={() => zoomTo(zoom + 1)} disabled={zoom === ZOOMS.length - 1} aria-label="Zoom in">
                  +
                </button>
                <a href={photo.full} target="_blank" rel="noopener" className={button}>
                  Open
                </a>
                <button type="button" className={button} onClick={() => setCurrent(null)} autoFocus>
                  Close
                </button>
              </div>
            </div>
            <div className="flex-1 overflow-auto">
              <img
                src={photo.full}
                alt={photo.label}
                width={photo.width}
                height={photo.height}
                onClick={() => zoomTo(zoom === 0 ? 1 : 0)}
                className={
                  zoom
                    ? `h-auto max-w-none cursor-zoom-out ${ZOOM_WIDTHS[zoom]}`
                    : "mx-auto h-full max-h-full w-auto max-w-full cursor-zoom-in object-contain"
                }
              />
            </div>
          </div>
        )}
      </dialog>
    </>
  );
}
