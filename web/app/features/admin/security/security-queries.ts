import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { AdminRecoveryCodes, AdminSecondFactorStatus, adminTotpSchema } from '@guida/shared/schemas/admin';
import { toast } from '../../../components/ui/toast-store';
import { adminPost, useAdminQuery } from '../admin-api';

export const SECOND_FACTOR_URL = '/api/admin/second-factor';

/** The signed-in admin's second factor: required or not, since when, recovery codes left. */
export const useSecondFactorStatus = () => useAdminQuery<AdminSecondFactorStatus>(SECOND_FACTOR_URL);

/** Ten new recovery codes against a current code of the app; the status is read again. */
export function useRegenerateRecoveryCodes() {
  return useMutation({
    mutationFn: async (answer: z.output<typeof adminTotpSchema>, { client }) =>
      (await adminPost<AdminRecoveryCodes & { message: string }>(client, `${SECOND_FACTOR_URL}/recovery-codes`, answer))!,
    onSuccess: async (answer, _answer, _result, { client }) => {
      toast({ title: answer.message });
      await client.invalidateQueries({ queryKey: [SECOND_FACTOR_URL] });
    },
  });
}
