import { element } from './dom.js';

/** A flat JSON Schema as elicitation sends it. */
export type FormSchema = { properties?: Record<string, Record<string, unknown>>; required?: string[] };

/** A field's value as elicitation answers it. */
type FieldValue = string | number | boolean | string[];

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** The choices of an enum field: `enum` (with `enumNames`), or `oneOf`/`anyOf` of `const` with `title`. */
function choices(property: Record<string, unknown>): { value: string; label: string }[] | undefined {
  const items = (property.items ?? {}) as Record<string, unknown>;
  const source = property.type === 'array' ? items : property;
  if (Array.isArray(source.enum)) {
    const names = Array.isArray(source.enumNames) ? source.enumNames : [];
    return source.enum.map((value, index) => ({ value: String(value), label: String(names[index] ?? value) }));
  }
  const options = (source.oneOf ?? source.anyOf) as Array<Record<string, unknown>> | undefined;
  if (Array.isArray(options)) {
    return options.map((option) => ({
      value: String(option.const),
      label: text(option.title) ?? String(option.const),
    }));
  }
  return undefined;
}

/** One field: a text, number or date input, a checkbox, a select, or a group of checkboxes. */
function field(name: string, property: Record<string, unknown>, required: boolean): HTMLElement {
  const label = text(property.title) ?? name;
  const description = text(property.description);
  const id = `field-${name}-${Math.random().toString(36).slice(2, 8)}`;
  const fallback = property.default;
  const options = choices(property);
  const common = { name, id, 'data-type': String(property.type ?? 'string'), required: required || undefined };
  let control: HTMLElement;
  if (property.type === 'boolean') {
    control = element('input', { ...common, type: 'checkbox', checked: fallback === true || undefined });
  } else if (property.type === 'array' && options) {
    return element(
      'fieldset',
      { 'data-field': name, 'data-type': 'array' },
      element('legend', {}, label),
      ...options.map((option) =>
        element(
          'label',
          { class: 'inline' },
          element('input', {
            type: 'checkbox',
            value: option.value,
            checked: (Array.isArray(fallback) && fallback.includes(option.value)) || undefined,
          }),
          ` ${option.label}`,
        ),
      ),
    );
  } else if (options) {
    control = element(
      'select',
      common,
      ...(required ? [] : [element('option', { value: '' }, '')]),
      ...options.map((option) =>
        element('option', { value: option.value, selected: option.value === fallback || undefined }, option.label),
      ),
    );
  } else {
    const numeric = property.type === 'number' || property.type === 'integer';
    const format = text(property.format);
    const type = numeric
      ? 'number'
      : format === 'email'
        ? 'email'
        : format === 'uri'
          ? 'url'
          : format === 'date'
            ? 'date'
            : 'text';
    control = element('input', {
      ...common,
      type,
      step: property.type === 'integer' ? '1' : numeric ? 'any' : undefined,
      min: property.minimum !== undefined ? String(property.minimum) : undefined,
      max: property.maximum !== undefined ? String(property.maximum) : undefined,
      minlength: property.minLength !== undefined ? String(property.minLength) : undefined,
      maxlength: property.maxLength !== undefined ? String(property.maxLength) : undefined,
      value: fallback !== undefined ? String(fallback) : undefined,
    });
  }
  return element(
    'label',
    { for: id, 'data-field': name },
    element('span', {}, label, required ? ' *' : ''),
    control,
    description ? element('small', { class: 'muted' }, description) : undefined,
  );
}

/** The form's fields for a schema. */
export function schemaFields(schema: FormSchema): HTMLElement[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, property]) => field(name, property, required.has(name)));
}

/** The values of a form built by `schemaFields`, typed as the schema says; empty optional fields are left out. */
export function formValues(form: HTMLFormElement): Record<string, FieldValue> {
  const values: Record<string, FieldValue> = {};
  for (const container of form.querySelectorAll<HTMLElement>('[data-field]')) {
    const name = container.dataset.field ?? '';
    if (container.dataset.type === 'array') {
      values[name] = [...container.querySelectorAll<HTMLInputElement>('input:checked')].map((input) => input.value);
      continue;
    }
    const control = container.querySelector<HTMLInputElement | HTMLSelectElement>('input, select');
    if (!control) continue;
    const type = control.dataset.type;
    if (control instanceof HTMLInputElement && control.type === 'checkbox') values[name] = control.checked;
    else if (control.value === '') continue;
    else values[name] = type === 'number' || type === 'integer' ? Number(control.value) : control.value;
  }
  return values;
}
