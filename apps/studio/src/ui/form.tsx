import { zodResolver } from '@hookform/resolvers/zod';
import {
  cloneElement,
  useCallback,
  useId,
  useMemo,
  useState,
  type InputHTMLAttributes,
  type ReactElement,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
} from 'react';
import {
  useForm,
  type FieldError,
  type FieldErrors,
  type Resolver,
  type FieldValues,
  type Path,
  type PathValue,
  type UseFormProps,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { ApiError, isApiError } from '../api/api';
import { useMessages } from '../i18n/i18n';
import { useFailureMessage, useServerSentence } from './failure';
import styles from './form.module.css';
import { uiMessages } from './messages';

export { styles as formStyles };

interface ControlProps {
  id: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

export interface FieldProps {
  label: string;
  hint?: ReactNode;
  /** The message under the field: the form's own check or the server's. */
  error?: string | FieldError | undefined;
  /** A word shown after the label for a field that may stay empty. */
  optional?: string;
  /** The control; it receives its id and the description of its hint and error. */
  children: ReactElement<ControlProps>;
  /** Beside the control, e.g. a colour picker. */
  addon?: ReactNode;
}

/** A labelled control with its hint and its error, wired for screen readers. */
export function Field({ label, hint, error, optional, children, addon }: FieldProps) {
  const id = useId();
  const message = typeof error === 'string' ? error : error?.message;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = message ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const control = cloneElement(children, {
    id,
    'aria-invalid': message ? true : undefined,
    'aria-describedby': describedBy,
  });
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
        {optional ? <span className={styles.optional}> {optional}</span> : null}
      </label>
      {addon ? (
        <div className={styles.copy}>
          {control}
          {addon}
        </div>
      ) : (
        control
      )}
      {message ? (
        <p className={styles.error} id={errorId}>
          {message}
        </p>
      ) : null}
      {hint ? (
        <p className={styles.hint} id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Input({
  className,
  ref,
  ...rest
}: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return <input ref={ref} className={[styles.control, className ?? ''].join(' ')} {...rest} />;
}

export function Select({
  className,
  ref,
  ...rest
}: SelectHTMLAttributes<HTMLSelectElement> & { ref?: Ref<HTMLSelectElement> }) {
  return (
    <select ref={ref} className={[styles.control, styles.select, className ?? ''].join(' ')} {...rest} />
  );
}

/** A failure that belongs to no field (a lost connection, a 5xx, a missing role), above the buttons. */
export function FormAlert({ error }: { error: unknown }) {
  const message = useFailureMessage();
  if (!error) return null;
  return (
    <div className={styles.alert} role="alert">
      {message(error)}
    </div>
  );
}

/**
 * zod's issues in the Studio's language. A schema's own message (a pattern's or a refinement's, in
 * English for API clients) wins over a parse's messages in zod, so the form puts a sentence of its
 * own for that kind of issue in its place.
 */
function useLocalizedIssues(): {
  error: z.core.$ZodErrorMap;
  relocalize: (errors: FieldErrors) => FieldErrors;
} {
  const t = useMessages(uiMessages);
  return useMemo(() => {
    const produced = new Set<string>();
    const say = (message: string) => {
      produced.add(message);
      return message;
    };
    const error: z.core.$ZodErrorMap = (issue) => {
      if (issue.code === 'too_small')
        return say(
          issue.origin === 'string' && Number(issue.minimum) <= 1
            ? t('required')
            : t('tooShort', { min: Number(issue.minimum) }),
        );
      if (issue.code === 'too_big') return say(t('tooLong', { max: Number(issue.maximum) }));
      if (issue.code === 'invalid_format')
        return say(issue.format === 'email' ? t('invalidEmail') : t('invalidFormat'));
      if (issue.code === 'invalid_type')
        return say(issue.input === undefined || issue.input === '' ? t('required') : t('invalid'));
      // A union of "" or a value: an empty text where a value is needed, else a value of the wrong form.
      if (issue.code === 'invalid_union') return say(issue.input === '' ? t('required') : t('invalidFormat'));
      return say(t('invalid'));
    };
    const fallback = (type: string) =>
      type === 'invalid_format' ? t('invalidFormat') : type === 'too_small' ? t('tooShortAny') : t('invalid');
    const relocalize = (errors: FieldErrors): FieldErrors => {
      const visit = (node: unknown): unknown => {
        if (node === null || typeof node !== 'object') return node;
        const record = node as Record<string, unknown>;
        if (typeof record.type === 'string' && typeof record.message === 'string')
          return produced.has(record.message) ? record : { ...record, message: fallback(record.type) };
        return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, visit(value)]));
      };
      return visit(errors) as FieldErrors;
    };
    return { error, relocalize };
  }, [t]);
}

/**
 * A form checked by a contract's schema (the same rules the server applies), its errors in the
 * Studio's language.
 */
export function useContractForm<Input extends FieldValues, Output extends FieldValues>(
  schema: z.ZodType<Output, Input>,
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver'> = {},
): UseFormReturn<Input, unknown, Output> {
  const { error, relocalize } = useLocalizedIssues();
  const resolver = useMemo<Resolver<Input, unknown, Output>>(() => {
    const check = zodResolver(schema, { error });
    return async (values, context, resolverOptions) => {
      const result = await check(values, context, resolverOptions);
      if (Object.keys(result.errors).length === 0) return result;
      return { values: {}, errors: relocalize(result.errors) as FieldErrors<Input> };
    };
  }, [schema, error, relocalize]);
  return useForm<Input, unknown, Output>({ mode: 'onTouched', ...options, resolver });
}

const NO_ALIASES: Record<string, string> = {};

function fieldNames(values: unknown, prefix = ''): string[] {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return prefix ? [prefix] : [];
  return Object.entries(values as Record<string, unknown>).flatMap(([key, value]) =>
    fieldNames(value, prefix ? `${prefix}.${key}` : key),
  );
}

/**
 * What a form does with a failed submit: the server's issues go next to their fields (`body.name` on
 * `name`), anything else (a lost connection, a 5xx, a missing role, an issue of no field) shows in
 * the form's alert. What was typed stays.
 */
export function useSubmitFailure<T extends FieldValues>(
  form: Pick<UseFormReturn<T, unknown, FieldValues>, 'setError' | 'getValues'>,
  options: {
    /** Server field names that a form shows under another name (`accountSlug` → `slug`). */
    aliases?: Record<string, string>;
    /** A 409 that belongs to one field (a slug or a domain already taken), said in the Studio's words. */
    conflict?: { field: Path<T>; message: string };
  } = {},
): { failure: unknown; fail: (error: unknown) => void; clear: () => void } {
  const [failure, setFailure] = useState<unknown>(null);
  const sentence = useServerSentence();
  const { aliases = NO_ALIASES, conflict } = options;
  const fail = useCallback(
    (error: unknown) => {
      if (conflict && isApiError(error) && error.status === 409) {
        form.setError(conflict.field, { type: 'server', message: conflict.message });
        setFailure(null);
        return;
      }
      if (isApiError(error) && error.issues.length > 0) {
        const known = new Set(fieldNames(form.getValues()));
        const unplaced: ApiError['issues'][number][] = [];
        for (const issue of error.issues) {
          const field = aliases[issue.field] ?? issue.field;
          if (known.has(field))
            form.setError(field as Path<T>, { type: 'server', message: sentence(issue.message) });
          else unplaced.push(issue);
        }
        setFailure(
          unplaced.length > 0
            ? new ApiError({
                status: error.status,
                code: error.code,
                message: error.message,
                issues: unplaced,
                requiredRole: error.requiredRole,
              })
            : null,
        );
        return;
      }
      setFailure(error);
    },
    [form, aliases, conflict, sentence],
  );
  const clear = useCallback(() => {
    setFailure(null);
  }, []);
  return { failure, fail, clear };
}

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/**
 * A colour as text (#rrggbb, rgb() or rgba(), as the contracts take it) with a picker beside it: the
 * picker shows the text's colour when it is #rrggbb (else `fallback`), and writes #rrggbb back.
 */
export function ColorField<T extends FieldValues, O>({
  form,
  name,
  label,
  pickerLabel,
  hint,
  optional,
  error,
  fallback = '#000000',
  placeholder,
}: {
  form: UseFormReturn<T, unknown, O>;
  name: Path<T>;
  label: string;
  pickerLabel: string;
  hint?: string;
  optional?: string;
  error: FieldError | undefined;
  fallback?: string;
  placeholder?: string;
}) {
  const value: unknown = form.watch(name);
  const hex = typeof value === 'string' && HEX_COLOR.test(value) ? value : fallback;
  return (
    <Field
      label={label}
      {...(hint === undefined ? {} : { hint })}
      {...(optional === undefined ? {} : { optional })}
      error={error}
      addon={
        <input
          type="color"
          className={styles.swatch}
          aria-label={pickerLabel}
          value={hex}
          onChange={(event) => {
            form.setValue(name, event.target.value as PathValue<T, Path<T>>, {
              shouldDirty: true,
              shouldValidate: true,
            });
          }}
        />
      }
    >
      <Input
        autoComplete="off"
        spellCheck={false}
        {...(placeholder === undefined ? {} : { placeholder })}
        {...form.register(name)}
      />
    </Field>
  );
}
