// The photos chosen for upload: added from the picker or by drag and drop, each checked
// against the limits and with the messages the server sent (count, type, size), with a
// preview URL, removable.
import { useCallback, useEffect, useRef, useState } from "react";

const HEIF_NAME = /\.(heic|heif)$/i;

function isAllowedType(file, types) {
  return types.includes(file.type) || (!file.type && HEIF_NAME.test(file.name));
}

function fill(template, name) {
  return template.replace("{name}", name);
}

export function usePhotos(limits, messages, notify) {
  const [photos, setPhotos] = useState([]);
  const nextId = useRef(1);
  const urls = useRef([]);

  const add = (files) => {
    const accepted = [];
    for (const file of files) {
      if (!isAllowedType(file, limits.types)) {
        notify(fill(messages.notAnImage, file.name), "error");
      } else if (file.size > limits.maxBytes) {
        notify(fill(messages.photoTooLarge, file.name), "error");
      } else {
        accepted.push(file);
      }
    }
    const room = Math.max(limits.maxCount - photos.length, 0);
    if (accepted.length > room) notify(messages.tooManyPhotos, "error");
    const added = accepted.slice(0, room).map((file) => {
      const url = URL.createObjectURL(file);
      urls.current.push(url);
      return { id: nextId.current++, file, url };
    });
    if (added.length) setPhotos([...photos, ...added]);
    return added.length > 0;
  };

  const remove = useCallback((id) => {
    setPhotos((current) => {
      const photo = current.find((item) => item.id === id);
      if (photo) URL.revokeObjectURL(photo.url);
      return current.filter((item) => item.id !== id);
    });
  }, []);

  const clear = useCallback(() => {
    setPhotos((current) => {
      current.forEach((photo) => URL.revokeObjectURL(photo.url));
      return [];
    });
  }, []);

  useEffect(() => () => urls.current.forEach((url) => URL.revokeObjectURL(url)), []);

  return { photos, add, remove, clear };
}
