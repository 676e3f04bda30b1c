import { useId } from 'react';

/** A labelled digits field with its help, or its error, below and read out with it. */
export function DigitsField({
  label,
  name,
  value,
  onChange,
  digits,
  autoComplete,
  help,
  error,
}: {
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  digits: number;
  autoComplete: string;
  help: string;
  error: string | null;
}) {
  const id = useId();
  return (
    <div className="p-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, digits))}
        autoComplete={autoComplete}
        // The one field of its step: the customer types at once.
        autoFocus
        inputMode="numeric"
        maxLength={digits}
        aria-invalid={error !== null}
        aria-describedby={`${id}-help`}
      />
      <p
        id={`${id}-help`}
        className={error ? 'p-help p-error' : 'p-help'}
        role={error ? 'alert' : undefined}
      >
        {error ?? help}
      </p>
    </div>
  );
}
