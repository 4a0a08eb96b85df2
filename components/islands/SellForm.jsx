// The sell form. Server-rendered, it is a plain multipart form that posts to /sell (CSRF,
// campaign and event-id fields sit outside the island, tied to the form by its id). Hydrated,
// it validates with the server's own rules, downscales and uploads photos with progress,
// and reports through toasts. All rules, messages and choices arrive as props from the form.
import { useEffect, useId, useRef, useState } from "react";
import { usePhotos } from "../hooks/usePhotos.js";
import { useInstantRange } from "../hooks/useInstantRange.js";
import { useSellForm, valuesOnPage } from "../hooks/useSellForm.js";
import { useToasts } from "../hooks/useToasts.js";
import { HandoverChoice, ZipNote } from "../shared/HandoverChoice.jsx";
import { InstantRange } from "../shared/InstantRange.jsx";
import { ErrorText, focusRing, PhotoPicker, UploadProgress } from "../shared/PhotoPicker.jsx";
import { Toaster } from "../shared/Toaster.jsx";
import { trackPixel } from "../shared/tracking.js";

const VIEW_CONTENT_DELAY_MS = 500;
const control = (invalid) =>
  `block w-full rounded-lg border bg-white px-3.5 py-2.5 text-base text-ink-900 shadow-xs placeholder:text-ink-400 focus:outline-none focus:ring-2 ${
    invalid
      ? "border-red-500 focus:border-red-500 focus:ring-red-200"
      : "border-ink-200 focus:border-gold-500 focus:ring-gold-100"
  }`;
const PHOTO_TIPS = [
  "The dial, face-on",
  "The caseback",
  "The clasp and bracelet or strap",
  "Reference and serial between the lugs",
  "Box and papers, if you have them",
  "Any scratches, dents or damage",
];

function Section({ number, title, description, children }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="border-t border-ink-100 pt-8 first:border-0 first:pt-0">
      <div className="flex items-center gap-3">
        <span aria-hidden="true" className="flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-gold-100 font-serif text-base font-semibold text-gold-800">
          {number}
        </span>
        <h2 id={id} className="text-xl font-semibold sm:text-2xl">
          <span className="sr-only">{number}. </span>
          {title}
        </h2>
      </div>
      {description && <p className="mt-2 text-sm text-ink-600 sm:pl-11">{description}</p>}
      <div className="mt-6 grid gap-5 sm:grid-cols-2">{children}</div>
    </section>
  );
}

function Label({ htmlFor, field }) {
  return (
    <label htmlFor={htmlFor} className="mb-1.5 block text-sm font-medium text-ink-800">
      {field.label}
      {field.required ? (
        <span className="ml-0.5 text-red-600" aria-hidden="true">*</span>
      ) : (
        <span className="ml-1.5 font-normal text-ink-600">(optional)</span>
      )}
    </label>
  );
}

// A labelled input, select or textarea wired to the form state, with its inline error.
function Field({ name, form, props, as = "input", wide = false, options, placeholder, ...rest }) {
  const field = props.fields[name];
  const id = `field-${name}`;
  const error = form.errors[name];
  const shared = {
    id,
    name,
    value: form.values[name],
    onChange: (event) => form.change(name, event.target.value),
    onBlur: () => form.blur(name),
    required: field.required || undefined,
    "aria-invalid": error ? "true" : undefined,
    "aria-describedby": error ? `${id}-error` : undefined,
    className: control(Boolean(error)),
    ...rest,
  };
  return (
    <div className={wide ? "sm:col-span-2" : undefined}>
      <Label htmlFor={id} field={field} />
      {as === "select" ? (
        <select {...shared}>
          <option value="">{placeholder}</option>
          {options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      ) : as === "textarea" ? (
        <textarea rows={4} placeholder={placeholder} {...shared} />
      ) : (
        <input placeholder={placeholder} {...shared} />
      )}
      <ErrorText id={`${id}-error`} message={error} />
    </div>
  );
}

function Checkbox({ name, form, props }) {
  const id = `field-${name}`;
  return (
    <label htmlFor={id} className="flex cursor-pointer items-center gap-3 rounded-lg border border-ink-200 px-4 py-3 text-sm font-medium text-ink-800 has-checked:border-gold-500 has-checked:bg-gold-100/40">
      <input
        id={id}
        type="checkbox"
        name={name}
        value="y"
        checked={form.values[name]}
        onChange={(event) => form.change(name, event.target.checked)}
        className="h-5 w-5 rounded border-ink-400 accent-gold-600"
      />
      {props.fields[name].label}
    </label>
  );
}

function PhotoTips() {
  return (
    <div className="rounded-xl bg-ink-50 p-4 text-sm text-ink-700 sm:col-span-2">
      <p className="font-semibold text-ink-900">The photos that help us most</p>
      <ul className="mt-2 grid gap-x-6 gap-y-1 sm:grid-cols-2">
        {PHOTO_TIPS.map((tip) => (
          <li key={tip} className="flex gap-2">
            <span aria-hidden="true" className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-gold-500" />
            {tip}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-ink-600">Daylight, no flash, and the whole watch in frame.</p>
    </div>
  );
}

function FormAlert({ message, photosDropped }) {
  if (!message) return null;
  return (
    <div role="alert" className="mb-8 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
      <p className="font-semibold">{message}</p>
      <p className="mt-1">Please check the fields marked below.</p>
      {photosDropped && <p className="mt-1">For your security, photos are not kept: please choose them again.</p>}
    </div>
  );
}

function SubmitArea({ form }) {
  const busy = form.status === "processing";
  return (
    <div className="border-t border-ink-100 pt-6">
      <button
        type="submit"
        disabled={busy}
        className={`inline-flex w-full items-center justify-center rounded-full bg-gold-500 px-6 py-3.5 text-base font-semibold text-ink-900 shadow-sm hover:bg-gold-400 disabled:cursor-wait disabled:opacity-70 sm:w-auto sm:min-w-64 ${focusRing}`}
      >
        {busy ? "Processing..." : "Get My Free Valuation"}
      </button>
      {busy && <UploadProgress progress={form.progress} />}
      <p className="mt-4 text-xs text-ink-600">
        By submitting you agree to be contacted about your watch. No fees, no obligation.
      </p>
    </div>
  );
}

// The island's code arrives after the first paint, or at the seller's first touch of the form:
// what the fields hold when it hydrates (typed, chosen, ticked) is its state from the start.
// Photos already picked are the picker's to adopt (PhotoPicker).
export function adoptPage(element, props) {
  const values = valuesOnPage(element.querySelector("form"), props.values);
  const typedBeforeHydration = Object.keys(values).some((name) => values[name] !== props.values[name]);
  return { ...props, values, typedBeforeHydration };
}

export default function SellForm(props) {
  const { toasts, show, dismiss } = useToasts();
  const photos = usePhotos(props.photos, props.messages, show);
  const form = useSellForm({ props, photos, toast: show });
  const range = useInstantRange(props.rangeUrl, form.values, props.range, props.typedBeforeHydration);
  const [enhanced, setEnhanced] = useState(false);
  const formRef = useRef(null);

  useEffect(() => {
    setEnhanced(true);
    const timer = setTimeout(() => trackPixel("ViewContent"), VIEW_CONTENT_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);

  const onSubmit = async (event) => {
    event.preventDefault();
    if (form.status === "processing") return;
    const errors = await form.submit(formRef.current);
    const first = Object.keys(props.fields).find((name) => errors[name]);
    if (first) formRef.current.querySelector(`#field-${first}`)?.focus();
  };

  return (
    <>
      <form
        ref={formRef}
        id="sell-form"
        method="post"
        action={props.action}
        encType="multipart/form-data"
        noValidate
        onSubmit={onSubmit}
        className="space-y-8"
      >
        <FormAlert message={form.formError} photosDropped={props.photosDropped} />
        <p className="text-sm text-ink-600">
          Fields marked <span className="text-red-600">*</span> are required.
        </p>
        <Section number={1} title="Personal Information" description="So a specialist can reach you with your quote.">
          <Field name="fullName" form={form} props={props} wide autoComplete="name" />
          <Field name="email" form={form} props={props} type="email" autoComplete="email" inputMode="email" />
          <Field name="phone" form={form} props={props} type="tel" autoComplete="tel" />
        </Section>
        <Section number={2} title="Watch Details" description="As much as you know; the reference number helps most.">
          <Field name="watchBrand" form={form} props={props} as="select" options={props.brands} placeholder="Select a brand" />
          <Field name="watchModel" form={form} props={props} placeholder="e.g. Submariner Date" autoComplete="off" />
          <Field name="watchYear" form={form} props={props} inputMode="numeric" maxLength={4} placeholder="e.g. 2019" autoComplete="off" />
          <Field name="watchCondition" form={form} props={props} as="select" options={props.conditions} placeholder="Select condition" />
          <Checkbox name="hasBox" form={form} props={props} />
          <Checkbox name="hasPapers" form={form} props={props} />
          <div aria-live="polite" className="sm:col-span-2 empty:hidden">
            <InstantRange range={range} />
          </div>
          <Field
            name="additionalDetails"
            form={form}
            props={props}
            as="textarea"
            wide
            placeholder="Reference number, service history, purchase date, anything else worth knowing"
          />
        </Section>
        {props.handovers && (
          <Section number={3} title="Handing Over Your Watch" description="In person near one of the cities we cover, or by insured mail from anywhere in the US.">
            <Field name="postalCode" form={form} props={props} inputMode="numeric" maxLength={5} placeholder="e.g. 83702" autoComplete="postal-code" />
            <ZipNote />
            <HandoverChoice form={form} props={props} />
          </Section>
        )}
        <Section number={props.handovers ? 4 : 3} title="Upload Photos" description="Clear photos let us give you a firmer quote, faster.">
          <PhotoTips />
          <PhotoPicker
            photos={photos}
            limits={props.photos}
            messages={props.messages}
            error={form.errors.photos}
            enhanced={enhanced}
            onAdd={form.addPhotos}
          />
        </Section>
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor="field-website">Leave this field empty</label>
          <input id="field-website" type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
        </div>
        <SubmitArea form={form} />
      </form>
      <Toaster toasts={toasts} onDismiss={dismiss} />
    </>
  );
}
