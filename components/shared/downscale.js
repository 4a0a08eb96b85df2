// Shrinks big photos in the browser before upload, so a phone sends a few MB instead of 50:
// longest side at most 2560 px, re-encoded as JPEG (which also drops the photo's EXIF/GPS).
// A very detailed photo is encoded once more at a lower quality to stay near the per-photo
// budget, so ten photos stay under 8 MB. Small photos, and anything the browser cannot decode
// (e.g. HEIC), are sent untouched.
export const MAX_SIDE = 2560;
const QUALITIES = [0.82, 0.7];
const PHOTO_BUDGET_BYTES = 750 * 1024;
const SMALL_BYTES = 1.5 * 1024 * 1024;

function jpegName(name) {
  return name.replace(/\.[^.]*$/, "") + ".jpg";
}

async function toJpeg(bitmap, width, height, quality) {
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff"; // transparent PNGs get the white the server would give them
  context.fillRect(0, 0, width, height);
  context.drawImage(bitmap, 0, 0, width, height);
  return new Promise((resolve) => canvas.toBlob(resolve, "image/jpeg", quality));
}

export async function downscale(file) {
  if (file.size <= SMALL_BYTES || !/^image\/(jpeg|png|webp)$/.test(file.type)) return file;
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return file;
  }
  const scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
  const width = Math.round(bitmap.width * scale);
  const height = Math.round(bitmap.height * scale);
  let blob = null;
  for (const quality of QUALITIES) {
    blob = await toJpeg(bitmap, width, height, quality);
    if (!blob || blob.size <= PHOTO_BUDGET_BYTES) break;
  }
  bitmap.close();
  if (!blob || (scale === 1 && blob.size >= file.size)) return file;
  return new File([blob], jpegName(file.name), { type: "image/jpeg", lastModified: Date.now() });
}
