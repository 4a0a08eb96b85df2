// The sell form's state: typed values, one error per field (checked on blur and on submit with
// the server's own rules), the submission status and upload progress, and the tracking calls
// tied to them (InitiateCheckout on the first non-empty change, Lead on success).
import { useEffect, useRef, useState } from "react";
import { adOptOut, LEAD_VALUE, trackConversion, trackPixel } from "../shared/tracking.js";
import { appendPhotos, postForm } from "../shared/upload.js";
import { clickIdFields, forgetClickIds } from "../shared/clickIds.js";
import { landingFields } from "../shared/utm.js";
import { fieldError, formErrors } from "../shared/validation.js";

function newEventId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function csrfToken() {
  return document.querySelector('meta[name="csrf-token"]')?.content ?? "";
}

function emptyValues(values) {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, typeof value === "boolean" ? false : ""]),
  );
}

// What the form's fields hold now, under the names of `values`, each as a value of its kind
// (a ticked box's true or false, any other field's text).
export function valuesOnPage(form, values) {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const field = form.elements.namedItem(name);
      return [name, typeof value === "boolean" ? field.checked : field.value];
    }),
  );
}

export function useSellForm({ props, photos, toast }) {
  const [values, setValues] = useState(props.values);
  const [errors, setErrors] = useState(props.errors);
  const [status, setStatus] = useState("idle");
  const [progress, setProgress] = useState(0);
  const [formError, setFormError] = useState(props.formError);
  const started = useRef(false);
  const eventId = useRef(null);
  const failure = () => props.messages.failure;

  const noteStart = (value) => {
    if (started.current || value === "" || value === false) return;
    started.current = true;
    trackPixel("InitiateCheckout");
  };

  // A seller who typed before the island hydrated has started (SellForm's adoptPage).
  useEffect(() => {
    if (props.typedBeforeHydration) noteStart(true);
  }, []);

  const change = (name, value) => {
    noteStart(value);
    setValues((current) => ({ ...current, [name]: value }));
    if (errors[name]) {
      setErrors((current) => ({ ...current, [name]: fieldError(props.fields[name], value) }));
    }
  };

  const blur = (name) => {
    const field = props.fields[name];
    if (!field.rules.length) return;
    setErrors((current) => ({ ...current, [name]: fieldError(field, values[name]) }));
  };

  const addPhotos = (files) => {
    if (photos.add(files)) noteStart(true);
  };

  async function buildFormData(form) {
    const data = new FormData(form);
    await appendPhotos(data, photos.photos);
    eventId.current = eventId.current || newEventId();
    data.set("metaEventId", eventId.current);
    // what the browser kept of the visit replaces the page's own hidden fields, if it could
    const kept = { ...landingFields(), ...clickIdFields() };
    Object.entries(kept).forEach(([key, value]) => data.set(key, value));
    const optOut = adOptOut(); // the server also reads Sec-GPC and the cookie itself
    if (optOut) data.set("adOptOut", optOut);
    return data;
  }

  const succeed = (reference, range) => {
    const params = { brand: values.watchBrand, model: values.watchModel, ...LEAD_VALUE };
    trackPixel("Lead", params, eventId.current);
    trackConversion("generate_lead", { ...LEAD_VALUE, brand: values.watchBrand });
    const mail = values.handover === "mail" && props.messages.mailChosen;
    const detail = [reference && `Your reference: ${reference}.`, range?.line, mail].filter(Boolean);
    toast(props.messages.success, "success", detail.join(" "));
    setValues(emptyValues(values));
    setErrors({});
    photos.clear();
    eventId.current = null; // the next lead is a new event
    forgetClickIds();
  };

  const fail = (message, fieldErrors = {}) => {
    setErrors(fieldErrors);
    toast(message || failure(), "error");
    return fieldErrors;
  };

  // Validates, uploads and reports; returns the errors so the caller can move focus.
  const submit = async (form) => {
    setFormError(null);
    const found = formErrors(props.fields, values);
    if (Object.keys(found).length) return fail(failure(), found);
    setStatus("processing");
    setProgress(0);
    try {
      const data = await buildFormData(form);
      const { status: code, body } = await postForm(props.action, data, {
        headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
        onProgress: setProgress,
      });
      if (code >= 200 && code < 300 && body?.success) {
        succeed(body.reference, body.range);
        return {};
      }
      return fail(body?.error, body?.errors ?? {});
    } catch {
      return fail(failure());
    } finally {
      setStatus("idle");
    }
  };

  return { values, errors, status, progress, formError, change, blur, addPhotos, submit };
}
