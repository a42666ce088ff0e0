import { useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from './icons';

/**
 * The sign-in page's own controls, plain elements styled like the console's (login-page.css):
 * the page stays light, without the component library the console loads after sign-in.
 */

type FieldProps = {
  /** The field's name, also its placeholder (the page shows no labels above its fields). */
  label: string;
  icon: IconName;
  value: string;
  onChange: (value: string) => void;
  /** Shown under the field and tied to it (`aria-describedby`). */
  error?: string | null;
  testId: string;
  type?: 'text' | 'password' | 'tel';
  autoComplete: string;
  inputMode?: 'text' | 'tel' | 'numeric';
  maxLength?: number;
  autoFocus?: boolean;
  inputRef?: (input: HTMLInputElement | null) => void;
};

export function Field({
  label,
  icon,
  value,
  onChange,
  error,
  testId,
  type = 'text',
  autoComplete,
  inputMode,
  maxLength,
  autoFocus,
  inputRef,
}: FieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const [revealed, setRevealed] = useState(false);
  const password = type === 'password';
  return (
    <div className="signin-field">
      <label htmlFor={id} className="signin-visually-hidden">
        {label}
      </label>
      <span className={`signin-input${error ? ' signin-input--error' : ''}`}>
        <Icon name={icon} className="signin-input__prefix" />
        <input
          id={id}
          ref={inputRef}
          type={password && !revealed ? 'password' : type === 'tel' ? 'tel' : 'text'}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder={label}
          autoComplete={autoComplete}
          inputMode={inputMode}
          maxLength={maxLength}
          autoFocus={autoFocus}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid={testId}
        />
        {password && (
          <button
            type="button"
            className="signin-input__suffix"
            onClick={() => setRevealed((shown) => !shown)}
            aria-label={t(revealed ? 'login.hidePassword' : 'login.showPassword')}
            aria-pressed={revealed}
          >
            <Icon name={revealed ? 'eye' : 'eyeInvisible'} />
          </button>
        )}
      </span>
      {error && (
        <div id={`${id}-error`} className="signin-field__error">
          {error}
        </div>
      )}
    </div>
  );
}

/**
 * A label of two Chinese characters reads "登 录" on the console's buttons (antd spaces them): the
 * sign-in button keeps that look, and its accessible name with it.
 */
function spaced(label: string): string {
  return /^[\u4e00-\u9fa5]{2}$/.test(label) ? label.split('').join(' ') : label;
}

type ButtonProps = {
  children: string;
  kind?: 'primary' | 'default' | 'link';
  type?: 'button' | 'submit';
  loading?: boolean;
  disabled?: boolean;
  onClick?: () => void;
  testId: string;
  className?: string;
};

export function Button({
  children,
  kind = 'default',
  type = 'button',
  loading = false,
  disabled = false,
  onClick,
  testId,
  className,
}: ButtonProps) {
  return (
    <button
      type={type}
      className={`signin-button signin-button--${kind}${className ? ` ${className}` : ''}`}
      disabled={disabled}
      aria-busy={loading || undefined}
      onClick={loading ? undefined : onClick}
      data-testid={testId}
    >
      {loading && <Spinner />}
      <span>{spaced(children)}</span>
    </button>
  );
}

export function Spinner({ large = false }: { large?: boolean }) {
  return <span className={`signin-spinner${large ? ' signin-spinner--large' : ''}`} />;
}

/** A server's or the page's message above a form; read out as it appears. */
export function Alert({
  kind,
  children,
  testId,
}: {
  kind: 'error' | 'info';
  children: ReactNode;
  testId?: string;
}) {
  return (
    <div className={`signin-alert signin-alert--${kind}`} role="alert" data-testid={testId}>
      <Icon name={kind} className="signin-alert__icon" />
      <span>{children}</span>
    </div>
  );
}

/** The checks of a field, in order: the first that fails gives the message. */
export type Rule = { test: (value: string) => boolean; message: string };

export const required = (message: string, trim = false): Rule => ({
  test: (value) => (trim ? value.trim() : value) !== '',
  message,
});

export const pattern = (regex: RegExp, message: string): Rule => ({
  test: (value) => value === '' || regex.test(value),
  message,
});

/**
 * A form's values and checks: a field is checked as it changes once it was touched, every field on
 * submit (as the console's forms do), and the first field in error takes the focus.
 */
export function useFormState<Name extends string>(
  initial: Record<Name, string>,
  rules: () => Partial<Record<Name, Rule[]>>,
) {
  const [values, setValues] = useState(initial);
  const [checked, setChecked] = useState<Partial<Record<Name, boolean>>>({});
  const inputs = useRef<Partial<Record<Name, HTMLInputElement | null>>>({});

  const errorOf = (name: Name, value = values[name]): string | null =>
    (rules()[name] ?? []).find((rule) => !rule.test(value))?.message ?? null;

  return {
    values,
    error: (name: Name) => (checked[name] ? errorOf(name) : null),
    set: (name: Name, value: string) => {
      setValues((current) => ({ ...current, [name]: value }));
      setChecked((current) => ({ ...current, [name]: true }));
    },
    ref: (name: Name) => (input: HTMLInputElement | null) => {
      inputs.current[name] = input;
    },
    /** Checks the fields named (all by default); true when they pass. */
    validate: (names: readonly Name[] = Object.keys(values) as Name[]): boolean => {
      setChecked((current) => ({ ...current, ...Object.fromEntries(names.map((n) => [n, true])) }));
      const failed = names.find((name) => errorOf(name) !== null);
      if (failed === undefined) return true;
      inputs.current[failed]?.focus();
      return false;
    },
  };
}
