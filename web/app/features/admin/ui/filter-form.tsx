import { useForm, type Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { UTM_FIELDS } from '@guida/shared/attribution-rules';
import { Field } from '../../../components/ui/form';
import { TOUCH_LABELS } from './admin-format';
import { CARD_CLASS } from './admin-ui';
import { schemaResolver } from './schema-resolver';

/** A filter: a text (or date, or search) box, or a choice among `options` or "Tutti". */
export type FilterField<Name extends string = string> = { name: Name; label: string } & (
  | { type?: 'text' | 'date' | 'search' }
  | { options: readonly { value: string; label: string }[] }
);

/** The days of a report or a list, both included. */
export const DATE_RANGE_FIELDS: readonly FilterField<'from' | 'to'>[] = [
  { name: 'from', label: 'Dal giorno', type: 'date' },
  { name: 'to', label: 'Al giorno', type: 'date' },
];

/** The campaign's parameters, by the names operators put in their ads' URLs (utm_source ...). */
export const CAMPAIGN_FIELDS = UTM_FIELDS.map((name): FilterField<typeof name> => ({ name, label: TOUCH_LABELS[name] }));

type FilterValues = Record<string, string>;
type ParsedFilters = Record<string, unknown>;

/**
 * The API's schema of the filters as a resolver of the form's text values: an empty field
 * is left out before validation, as it is left out of the URL.
 */
function filterResolver(schema: z.ZodObject): Resolver<FilterValues, unknown, ParsedFilters> {
  const resolver = schemaResolver(schema) as Resolver<FilterValues, unknown, ParsedFilters>;
  return (values, context, options) =>
    resolver(Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')), context, options);
}

/**
 * A filter form checked with the API's schema of the same filters (its Italian message
 * under a wrong field): applying hands over every filter of the schema as text, empty
 * when unset. The fields follow the applied values (back button, "Azzera filtri").
 */
export function FilterForm<Name extends string>({
  label,
  schema,
  fields,
  values,
  onApply,
}: {
  label: string;
  schema: z.ZodObject<Record<Name, z.ZodType>>;
  fields: readonly FilterField<NoInfer<Name>>[];
  values: Record<NoInfer<Name>, string>;
  onApply: (applied: Record<NoInfer<Name>, string>) => void;
}) {
  const names = Object.keys(schema.shape) as Name[];
  const textOf = (read: (name: Name) => unknown) =>
    Object.fromEntries(names.map((name) => [name, String(read(name) ?? '')])) as Record<Name, string>;
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<FilterValues, unknown, ParsedFilters>({ values: textOf((name) => values[name]), resolver: filterResolver(schema) });
  const clear = () => {
    const cleared = textOf(() => '');
    reset(cleared);
    onApply(cleared);
  };
  return (
    <form
      aria-label={label}
      noValidate
      className={CARD_CLASS}
      onSubmit={(event) => void handleSubmit((parsed) => onApply(textOf((name) => parsed[name])))(event)}
    >
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {fields.map((field) =>
          'options' in field ? (
            <Field key={field.name} as="select" size="sm" label={field.label} error={errors[field.name]?.message} {...register(field.name)}>
              <option value="">Tutti</option>
              {field.options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Field>
          ) : (
            <Field
              key={field.name}
              size="sm"
              type={field.type ?? 'text'}
              label={field.label}
              error={errors[field.name]?.message}
              {...register(field.name)}
            />
          ),
        )}
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="submit" className="btn-primary">
          Applica filtri
        </button>
        <button type="button" className="btn-secondary" onClick={clear}>
          Azzera filtri
        </button>
      </div>
    </form>
  );
}
