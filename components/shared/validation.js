// Runs the sell form's rules exactly as the server does (app/forms/rules.py describes them):
// values are trimmed and NFC-normalised first, lengths count code points, and a field stops
// at its first failing rule, so browser and server always show the same message.
export function normalise(value) {
  return typeof value === "string" ? value.trim().normalize("NFC") : value;
}

const checks = {
  minLength: (value, length) => [...value].length >= length,
  maxLength: (value, length) => [...value].length <= length,
  pattern: (value, source) => new RegExp(source, "u").test(value),
  choice: (value, choices) => choices.includes(value),
  range: (value, [first, last]) =>
    /^[0-9]+$/.test(value) && Number(value) >= first && Number(value) <= last,
};

// The message of the first rule the value breaks, or null when it is valid.
export function fieldError(field, raw) {
  const value = normalise(raw ?? "");
  for (const rule of field.rules) {
    if (rule.kind === "optional") {
      if (value === "") return null;
    } else if (!checks[rule.kind](value, rule.value)) {
      return rule.message;
    }
  }
  return null;
}

export function formErrors(fields, values) {
  const errors = {};
  for (const [name, field] of Object.entries(fields)) {
    const message = field.rules.length ? fieldError(field, values[name]) : null;
    if (message) errors[name] = message;
  }
  return errors;
}
