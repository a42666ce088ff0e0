import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { App } from 'antd';
import type { ApiResult } from '../../api/client';

export type EntityMutationOptions<Input, Output> = {
  mutationFn: (input: Input) => Promise<Output>;
  /** The queries the change makes stale (prefixes: `['positions']` refreshes every page). */
  invalidates: readonly QueryKey[] | ((input: Input) => readonly QueryKey[]);
  /**
   * The notice shown once it succeeded (the server's message of a `request()` result, say); none
   * when absent. Errors need nothing here: the API client reports them from its error catalogue
   * (web/src/api/errors.ts), or leaves them to a form that places them under its fields.
   */
  successMessage?: (output: Output, input: Input) => string;
};

/** The success notice of a `request()` call: the server's message, in the console's language. */
export const serverMessage = (result: ApiResult<unknown>) => result.message;

/**
 * A create/update/delete of an entity: runs the call, shows the success notice and refreshes the
 * given queries; the mutation stays pending until they are refetched, so a form closing on
 * success shows the fresh list.
 */
export function useEntityMutation<Input, Output>(options: EntityMutationOptions<Input, Output>) {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const { mutationFn, invalidates, successMessage } = options;
  return useMutation({
    mutationFn,
    onSuccess: async (output: Output, input: Input) => {
      if (successMessage) void message.success(successMessage(output, input));
      const stale = typeof invalidates === 'function' ? invalidates(input) : invalidates;
      await Promise.all(stale.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
