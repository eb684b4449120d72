import { FieldError } from "./action-feedback";

/**
 * The reason an audited change asks for: labelled, required, its error beside it. The
 * caller keeps the value (forms clear it after a save).
 */
export function ReasonField({
  id,
  label,
  value,
  onChange,
  error,
  className = "w-full",
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  className?: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <input
        id={id}
        name="reason"
        required
        minLength={5}
        maxLength={2000}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-error`}
        className={`${className} rounded border border-slate-300 px-2 py-1`}
      />
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
