// How the seller hands the watch over (the sell form while the sale by mail is offered): two
// radio cards, each with its one-line explanation from the server, and the link to the page
// that explains the mail. The rule that a ZIP code beyond our cities' reach is offered the
// mail only is the server's: its answer shows here as the field's error.
import { ErrorText, focusRing } from "./PhotoPicker.jsx";

export function ZipNote() {
  return (
    <p className="-mt-3 text-sm text-ink-600 sm:mt-0 sm:self-end sm:pb-3">
      We use it only to see whether we can meet you, or buy your watch by insured mail.
    </p>
  );
}

export function HandoverChoice({ form, props }) {
  const field = props.fields.handover;
  const error = form.errors.handover;
  const errorId = "field-handover-error";
  return (
    <fieldset className="sm:col-span-2" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1.5 block text-sm font-medium text-ink-800">
        {field.label}
        <span className="ml-0.5 text-red-600" aria-hidden="true">*</span>
      </legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {props.handovers.map((choice, index) => {
          const id = index === 0 ? "field-handover" : `field-handover-${choice.value}`;
          return (
            <label
              key={choice.value}
              htmlFor={id}
              className={`flex cursor-pointer gap-3 rounded-lg border px-4 py-3 has-checked:border-gold-500 has-checked:bg-gold-100/40 ${
                error ? "border-red-500" : "border-ink-200"
              }`}
            >
              <input
                id={id}
                type="radio"
                name="handover"
                value={choice.value}
                checked={form.values.handover === choice.value}
                onChange={(event) => form.change("handover", event.target.value)}
                required
                aria-invalid={error ? "true" : undefined}
                className="mt-0.5 h-5 w-5 shrink-0 accent-gold-600"
              />
              <span>
                <span className="block text-sm font-semibold text-ink-900">{choice.label}</span>
                <span className="mt-0.5 block text-sm text-ink-600">{choice.hint}</span>
              </span>
            </label>
          );
        })}
      </div>
      <ErrorText id={errorId} message={error} />
      <p className="mt-3 text-sm text-ink-600">
        <a href={props.mailPage} target="_blank" rel="noopener" className={`font-semibold text-ink-900 underline ${focusRing}`}>
          How selling by insured mail works
        </a>{" "}
        (opens in a new tab)
      </p>
    </fieldset>
  );
}
