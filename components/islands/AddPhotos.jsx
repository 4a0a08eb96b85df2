// "Add photos" on the seller's status page. Server-rendered, it is a plain multipart form
// (the CSRF field sits outside the island, tied to the form by its id). Hydrated, it is the
// sell form's picker: the same checks in the browser, downscaling and upload progress; the
// server's answer sends it to the status page again, where the result is shown.
import { useEffect, useState } from "react";
import { usePhotos } from "../hooks/usePhotos.js";
import { useToasts } from "../hooks/useToasts.js";
import { focusRing, PhotoPicker, UploadProgress } from "../shared/PhotoPicker.jsx";
import { Toaster } from "../shared/Toaster.jsx";
import { appendPhotos, postForm } from "../shared/upload.js";

export default function AddPhotos(props) {
  const { toasts, show, dismiss } = useToasts();
  const photos = usePhotos(props.photos, props.messages, show);
  const [enhanced, setEnhanced] = useState(false);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState(0);
  const [error, setError] = useState(null);

  useEffect(() => setEnhanced(true), []);

  const add = (files) => {
    setError(null);
    photos.add(files);
  };

  const onSubmit = async (event) => {
    event.preventDefault();
    if (busy) return;
    if (!photos.photos.length) {
      setError(props.messages.noPhotos);
      return;
    }
    setBusy(true);
    setProgress(0);
    try {
      const data = new FormData(event.currentTarget);
      await appendPhotos(data, photos.photos);
      const { status, body } = await postForm(props.action, data, {
        headers: { Accept: "application/json" },
        onProgress: setProgress,
      });
      if (status >= 200 && status < 300 && body?.success) {
        window.location.assign(body.next);
        return;
      }
      show(body?.error || props.messages.failure, "error");
    } catch {
      show(props.messages.failure, "error");
    }
    setBusy(false);
  };

  return (
    <>
      <form id="add-photos" method="post" action={props.action} encType="multipart/form-data" noValidate onSubmit={onSubmit}>
        <PhotoPicker photos={photos} limits={props.photos} messages={props.messages} error={error} enhanced={enhanced} onAdd={add} />
        <button
          type="submit"
          disabled={busy}
          className={`mt-4 inline-flex items-center rounded-full bg-ink-900 px-5 py-2.5 text-sm font-semibold text-white hover:bg-ink-800 disabled:cursor-wait disabled:opacity-70 ${focusRing}`}
        >
          {busy ? "Sending..." : "Send photos"}
        </button>
        {busy && <UploadProgress progress={progress} />}
      </form>
      <Toaster toasts={toasts} onDismiss={dismiss} />
    </>
  );
}
