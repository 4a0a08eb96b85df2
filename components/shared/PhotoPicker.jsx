// The photo picker of the sell form and of the status page's "add photos": a file input that
// works as it is without JavaScript and, hydrated, a drop zone with previews that can be
// removed, plus the upload progress bar. The photos' state is usePhotos(); limits and
// messages come from the server as props. Photos picked in the plain input before the island
// hydrated are taken into the list as it hydrates.
import { useLayoutEffect, useRef, useState } from "react";
import { CloseIcon } from "./icons.jsx";

export const focusRing =
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-600";

function UploadIcon({ className }) {
  return (
    <svg aria-hidden="true" className={className} fill="none" stroke="currentColor" strokeWidth="1.75" viewBox="0 0 24 24">
      <path strokeLinecap="round" strokeLinejoin="round" d="M12 16V4m0 0-4 4m4-4 4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
    </svg>
  );
}

export function ErrorText({ id, message }) {
  if (!message) return null;
  return (
    <p id={id} className="mt-1.5 text-sm text-red-700">
      {message}
    </p>
  );
}

function PhotoList({ photos }) {
  if (!photos.photos.length) return null;
  return (
    <ul className="mt-4 grid grid-cols-3 gap-3 sm:grid-cols-5" aria-label="Chosen photos">
      {photos.photos.map((photo, index) => (
        <li key={photo.id} className="group relative aspect-square overflow-hidden rounded-lg border border-ink-100 bg-ink-50">
          <img src={photo.url} alt={`Photo ${index + 1}: ${photo.file.name}`} className="h-full w-full object-cover" />
          <button
            type="button"
            onClick={() => photos.remove(photo.id)}
            aria-label={`Remove photo ${index + 1}`}
            className={`absolute right-1 top-1 flex h-7 w-7 items-center justify-center rounded-full bg-ink-900/75 text-white hover:bg-ink-900 ${focusRing}`}
          >
            <CloseIcon className="h-4 w-4" />
          </button>
        </li>
      ))}
    </ul>
  );
}

export function PhotoPicker({ photos, limits, messages, error, enhanced, onAdd }) {
  const [dragging, setDragging] = useState(false);
  const accept = [...limits.types, ".heic", ".heif"].join(",");

  const onDrop = (event) => {
    event.preventDefault();
    setDragging(false);
    onAdd([...event.dataTransfer.files]);
  };
  const fileInput = useRef(null);
  const addPicked = (input) => {
    onAdd([...input.files]);
    input.value = ""; // the list lives in state; the same file can be picked again
  };
  // Photos picked before the island hydrated are still in the input: they join the list before
  // the browser paints again, as a pick would add them.
  useLayoutEffect(() => {
    if (fileInput.current.files.length) addPicked(fileInput.current);
  }, []);

  return (
    <div className="sm:col-span-2">
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors has-focus-visible:ring-2 has-focus-visible:ring-gold-500 ${
          dragging ? "border-gold-500 bg-gold-100/50" : error ? "border-red-400" : "border-ink-200 bg-ink-50/60"
        }`}
      >
        <UploadIcon className="mx-auto h-10 w-10 text-ink-400" />
        <label htmlFor="field-photos" className="mt-3 block text-base font-semibold text-ink-900">
          {enhanced ? (
            <>
              <span className="text-gold-700 underline decoration-gold-300 underline-offset-4">Choose photos</span>{" "}
              <span className="hidden font-normal text-ink-600 sm:inline">or drag and drop them here</span>
            </>
          ) : (
            "Choose photos"
          )}
        </label>
        <input
          id="field-photos"
          type="file"
          name="photos"
          multiple
          accept={accept}
          ref={fileInput}
          onChange={(event) => addPicked(event.target)}
          aria-describedby={error ? "field-photos-error photos-hint" : "photos-hint"}
          aria-invalid={error ? "true" : undefined}
          className={
            enhanced
              ? "sr-only"
              : "mx-auto mt-3 block max-w-full text-sm text-ink-700 file:mr-3 file:rounded-full file:border-0 file:bg-ink-900 file:px-4 file:py-2 file:text-sm file:font-semibold file:text-white"
          }
        />
        <p id="photos-hint" className="mt-2 text-sm text-ink-600">
          {messages.photoHint}
          <span> · up to {limits.maxCount} photos</span>
        </p>
        {enhanced && photos.photos.length > 0 && (
          <p className="mt-1 text-sm font-medium text-ink-800" aria-live="polite">
            {photos.photos.length} of {limits.maxCount} photos added
          </p>
        )}
      </div>
      <ErrorText id="field-photos-error" message={error} />
      <PhotoList photos={photos} />
    </div>
  );
}

export function UploadProgress({ progress }) {
  return (
    <div className="mt-4" data-testid="upload-progress">
      <div className="flex justify-between text-sm text-ink-600">
        <span>Uploading</span>
        <span>{progress}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress}
        className="mt-1.5 h-2 overflow-hidden rounded-full bg-ink-100"
      >
        <div className="h-full rounded-full bg-gold-500 transition-[width]" style={{ width: `${progress}%` }} />
      </div>
    </div>
  );
}
