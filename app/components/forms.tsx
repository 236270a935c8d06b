/**
 * Form pieces on @conform-to/react (one zod schema per form, used by conform in the
 * browser and by the action on the server). Each field has a visible label, an optional hint and
 * its error, tied to the control with aria-describedby and aria-invalid, so a screen reader reads
 * the error with the field. Everything renders on the server and works without JavaScript.
 */
import { getCollectionProps, getInputProps, getTextareaProps, type FieldMetadata } from '@conform-to/react';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { useT } from '~/i18n/i18n';
import common from '~/i18n/compiled/ko/common.js';

type Meta = FieldMetadata<unknown, Record<string, unknown>, string[]>;

/** The first error of a field, or nothing (the id is always rendered, so the layout does not jump). */
export function FieldError({ meta }: { meta: Meta }) {
  return (
    <p id={meta.errorId} className="field__error">
      {meta.errors?.[0]}
    </p>
  );
}

/** A field's label (marked when optional, in the page's language) and its hint, which the control's aria-describedby names. */
function FieldLabel({
  meta,
  label,
  optional,
  hint,
}: {
  meta: Meta;
  label: string;
  optional: boolean;
  hint?: ReactNode;
}) {
  const t = useT(common);
  return (
    <>
      <label htmlFor={meta.id} className="field__label">
        {label}
        {optional && <span className="field__optional"> ({t('form.optional')})</span>}
      </label>
      {hint && (
        <p id={meta.descriptionId} className="field__hint">
          {hint}
        </p>
      )}
    </>
  );
}

/** A labelled text input (`type` text, email, tel, url or password) with its hint and error. */
export function TextField({
  meta,
  label,
  hint,
  optional = false,
  inputProps = {},
}: {
  meta: Meta;
  label: string;
  hint?: ReactNode;
  optional?: boolean;
  inputProps?: InputHTMLAttributes<HTMLInputElement> & {
    type?: 'text' | 'email' | 'tel' | 'url' | 'password' | 'date';
  };
}) {
  const { key, ...props } = getInputProps(meta, {
    type: inputProps.type ?? 'text',
    ariaDescribedBy: hint ? meta.descriptionId : undefined,
  });
  return (
    <div className="field">
      <FieldLabel meta={meta} label={label} optional={optional} hint={hint} />
      <input key={key} {...props} aria-required={!optional} {...inputProps} className="field__control" />
      <FieldError meta={meta} />
    </div>
  );
}

/** A labelled textarea with its hint and error. */
export function TextareaField({
  meta,
  label,
  hint,
  optional = false,
  rows = 3,
  form,
}: {
  meta: Meta;
  label: string;
  hint?: ReactNode;
  optional?: boolean;
  rows?: number;
  /** The id of its form, when the textarea stands outside it (a dialog's field). */
  form?: string;
}) {
  const { key, ...props } = getTextareaProps(meta, { ariaDescribedBy: hint ? meta.descriptionId : undefined });
  return (
    <div className="field">
      <FieldLabel meta={meta} label={label} optional={optional} hint={hint} />
      <textarea key={key} {...props} aria-required={!optional} rows={rows} form={form} className="field__control" />
      <FieldError meta={meta} />
    </div>
  );
}

/**
 * A fieldset of radio buttons: the legend names the question, an optional hint says more, each
 * option has its own label. `onChange` reports the chosen value (the form still reads the radios
 * themselves).
 */
export function RadioGroup({
  meta,
  legend,
  hint,
  options,
  onChange,
}: {
  meta: Meta;
  legend: string;
  /** What the question means, under the legend; the fieldset's description. */
  hint?: ReactNode;
  options: readonly { value: string; label: ReactNode }[];
  onChange?: (value: string) => void;
}) {
  const radios = getCollectionProps(meta, {
    type: 'radio',
    options: options.map((option) => option.value),
  });
  const describedBy = [hint ? meta.descriptionId : null, meta.errors ? meta.errorId : null].filter(Boolean);
  return (
    <fieldset
      className="field field--choices"
      aria-invalid={meta.errors ? true : undefined}
      aria-describedby={describedBy.length > 0 ? describedBy.join(' ') : undefined}
    >
      <legend className="field__label">{legend}</legend>
      {hint && (
        <p id={meta.descriptionId} className="field__hint">
          {hint}
        </p>
      )}
      <div className="choices">
        {radios.map(({ key, ...radio }, index) => (
          <label key={key} className="choice">
            <input {...radio} onChange={(event) => onChange?.(event.currentTarget.value)} />
            <span>{options[index].label}</span>
          </label>
        ))}
      </div>
      <FieldError meta={meta} />
    </fieldset>
  );
}

/**
 * The errors of a failed submission, listed above the form in the order the form checks them, each
 * linking to its field (rendered by the server too, so a phone without JavaScript sees them first).
 */
export function ErrorSummary({
  errors,
  title,
}: {
  errors: readonly { fieldId: string; message: string }[];
  title: string;
}) {
  if (errors.length === 0) return null;
  return (
    <div className="error-summary" role="alert">
      <p className="error-summary__title">{title}</p>
      <ul>
        {errors.map(({ fieldId, message }) => (
          <li key={fieldId}>
            <a href={`#${fieldId}`}>{message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The submit button; while the form is being sent it says so and cannot be pressed twice. */
export function SubmitButton({
  pending,
  children,
  pendingText,
}: {
  pending: boolean;
  children: ReactNode;
  pendingText: string;
}) {
  return (
    <button type="submit" className="button button--primary" disabled={pending} aria-disabled={pending}>
      {pending ? pendingText : children}
    </button>
  );
}
