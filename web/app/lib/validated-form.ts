import { useCallback, useRef, useState, type FormEvent } from 'react';

type FieldElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
type FieldValues = Record<string, string | boolean>;
type FieldName<Values> = keyof Values & string;

export type FieldErrors<Values> = Partial<Record<FieldName<Values>, { message: string }>>;

/** What a form's validator answers: the parsed values, or one message per invalid field. */
export type Validation<Values, Parsed> =
  | { valid: true; values: Parsed }
  | { valid: false; errors: Partial<Record<FieldName<Values>, string>> };

/** Spread on an input, select or textarea: `<input {...register('email')} />`. */
export interface FieldRegistration {
  name: string;
  ref: (element: FieldElement | null) => void;
  onChange: () => void;
}

/**
 * Validation of an uncontrolled form, with the behaviour of react-hook-form's defaults that
 * visitors see: nothing is checked before the first submit; a submit checks every field,
 * shows each invalid field's message and focuses the first one; from then on a field is
 * checked again as it changes (its own message appears or goes). Values are read from the
 * fields themselves (a checkbox gives a boolean), so autofill counts too. `validate` must be
 * the same function on every render (declared outside the component).
 */
export function useValidatedForm<Values extends FieldValues, Parsed>(
  validate: (values: Values) => Promise<Validation<Values, Parsed>>,
) {
  const [errors, setErrors] = useState<FieldErrors<Values>>({});
  // Kept for the life of the form and changed in place: nothing here is rendered.
  const [elements] = useState(() => new Map<FieldName<Values>, FieldElement | null>());
  const [registrations] = useState(() => new Map<FieldName<Values>, FieldRegistration>());
  const submittedRef = useRef(false);

  const read = useCallback(() => {
    const values: FieldValues = {};
    for (const [name, element] of elements) {
      if (!element) continue;
      values[name] = element instanceof HTMLInputElement && element.type === 'checkbox' ? element.checked : element.value;
    }
    return values as Values;
  }, [elements]);

  const setFieldError = useCallback((name: FieldName<Values>, message: string | undefined) => {
    setErrors((current) => {
      if (current[name]?.message === message) return current;
      const next = { ...current };
      if (message === undefined) delete next[name];
      else next[name] = { message };
      return next;
    });
  }, []);

  /** Stable per field, so the element is registered once, in the order the fields render. */
  const register = (name: FieldName<Values>): FieldRegistration => {
    let registration = registrations.get(name);
    if (!registration) {
      elements.set(name, null);
      registration = {
        name,
        ref: (element) => {
          elements.set(name, element);
        },
        onChange: () => {
          if (!submittedRef.current) return;
          void validate(read()).then((result) => setFieldError(name, result.valid ? undefined : result.errors[name]));
        },
      };
      registrations.set(name, registration);
    }
    return registration;
  };

  const handleSubmit =
    (onValid: (values: Parsed, event: FormEvent<HTMLFormElement>) => void, onInvalid?: (errors: FieldErrors<Values>) => void) =>
    async (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      submittedRef.current = true;
      const result = await validate(read());
      if (!result.valid) {
        const found: FieldErrors<Values> = {};
        for (const [name, message] of Object.entries(result.errors) as [FieldName<Values>, string | undefined][]) {
          if (message !== undefined) found[name] = { message };
        }
        setErrors(found);
        const first = [...elements].find(([name, element]) => element && found[name]);
        first?.[1]?.focus();
        onInvalid?.(found);
        return;
      }
      setErrors({});
      onValid(result.values, event);
    };

  const setError = (name: FieldName<Values>, { message }: { message: string }) => setFieldError(name, message);

  const reset = () => {
    submittedRef.current = false;
    setErrors({});
  };

  return { register, handleSubmit, setError, reset, formState: { errors } };
}
