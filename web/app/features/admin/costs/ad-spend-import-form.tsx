import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { AD_SPEND_MAX_BYTES, adSpendCsvMessages } from '@guida/shared/ad-spend/ad-spend-csv';
import { Field, SubmitButton } from '../../../components/ui/form';
import { ApiError } from '../../../lib/api-client';
import { errorMessage } from '../admin-api';
import { schemaResolver } from '../ui/schema-resolver';
import { useImportAdSpend } from './cost-queries';

/** One file chosen in the file input (a FileList), within the API's size limit. */
const importFormSchema = z.object({
  file: z
    .custom<FileList>((value) => typeof FileList !== 'undefined' && value instanceof FileList && value.length === 1, {
      error: 'Scegli il file CSV da importare.',
    })
    .refine((files) => files[0]!.size <= AD_SPEND_MAX_BYTES, { error: adSpendCsvMessages.tooLarge }),
});
type ImportForm = z.input<typeof importFormSchema>;
const resolver = schemaResolver(importFormSchema);

/** The API's line errors, in line order ("altri": how many more), from a 400. */
function lineErrors(error: unknown) {
  const errors = error instanceof ApiError ? error.payload?.errors : undefined;
  return errors ? Object.values(errors) : [];
}

/**
 * The ad spend CSV upload (decision 060): the file goes to the API as it is, which imports
 * every row or none; the answer says how many rows were new and how many replaced an
 * amount imported before, or which lines are wrong.
 */
export function AdSpendImportForm() {
  const upload = useImportAdSpend();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ImportForm, unknown, z.output<typeof importFormSchema>>({ resolver });
  const submit = handleSubmit(({ file }) => upload.mutate(file[0]!));
  const problems = upload.isError ? lineErrors(upload.error) : [];

  return (
    <form aria-label="Importazione della spesa pubblicitaria" noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-3">
      <Field
        size="sm"
        type="file"
        accept=".csv,text/csv,text/plain"
        label="File CSV della spesa"
        description="Al massimo 1 MB e 10.000 righe; nulla viene importato se una riga è sbagliata."
        error={errors.file?.message}
        {...register('file', { onChange: () => upload.reset() })}
      />
      <div>
        <SubmitButton pending={upload.isPending} pendingLabel="Importazione in corso...">
          Importa
        </SubmitButton>
      </div>
      {upload.isSuccess && upload.data ? (
        <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm font-medium text-emerald-900">
          {upload.data.message}
        </p>
      ) : null}
      {upload.isError ? (
        // A list cannot sit in FormAlert's paragraph: the same look, as a block.
        <div role="alert" className="rounded-md bg-red-50 p-3 text-sm font-medium text-red-800">
          <p>{errorMessage(upload.error)}</p>
          {problems.length > 0 ? (
            <ul className="mt-2 list-disc space-y-1 pl-5 font-normal">
              {problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}
