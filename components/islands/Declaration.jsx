// The declaration the seller signs, word for word, with the name they type in "Full legal
// name". The server draws it with the name it knows, and with JavaScript off that is the whole
// story: a name typed since is shown by the server before anything is signed. Hydrated, the
// text follows the field as the seller types, and the hidden `declaration_name` tells the server
// which name the declaration showed, so one press of "Sign and send" signs what was read.
import { useEffect, useState } from "react";

// As the server cleans the name (app/status/paperwork_fields.py, clean_text): NFC, trimmed,
// runs of spaces as one.
const cleaned = (value) => value.normalize("NFC").trim().split(/\s+/).filter(Boolean).join(" ");

export default function Declaration({ before, after, name, placeholder, fieldId }) {
  const [shown, setShown] = useState(name);

  useEffect(() => {
    const field = document.getElementById(fieldId);
    if (!field) return undefined;
    const follow = () => setShown(cleaned(field.value));
    follow();
    field.addEventListener("input", follow);
    return () => field.removeEventListener("input", follow);
  }, [fieldId]);

  return (
    <>
      <div
        className="whitespace-pre-line rounded-lg border border-gold-300 bg-gold-100/40 px-4 py-4 text-sm leading-relaxed text-ink-900"
        data-declaration
      >
        {before + (shown || placeholder) + after}
      </div>
      <input type="hidden" name="declaration_name" value={shown} />
    </>
  );
}
