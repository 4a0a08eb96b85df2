import { downscale } from "./downscale.js";

// Posts FormData with XMLHttpRequest (fetch has no upload progress) and resolves with the
// status and parsed JSON body; network failures resolve with status 0.
export function postForm(url, formData, { headers = {}, onProgress = () => {} } = {}) {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.ontimeout = xhr.onerror;
    xhr.send(formData);
  });
}

// Puts the chosen photos in the form data in place of the file input's own, each downscaled
// first (see downscale.js).
export async function appendPhotos(data, photos) {
  data.delete("photos");
  for (const photo of photos) {
    const file = await downscale(photo.file);
    data.append("photos", file, file.name);
  }
}
