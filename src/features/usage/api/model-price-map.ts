import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { modelPriceListSchema, type ModelPrice } from '@contracts/usage/model-price-map';
import { getFromUsageApi, sendToUsageApi } from './usage-api-client';
import { connectionId, useUsageConnection, type UsageConnection } from './usage-connection';

const PATH = '/model-price-map';

/** A new entry as the editor sends it: dollars per million tokens, turned into per token. */
export interface ModelPriceInput {
  workspaceId: string;
  name: string;
  matchPattern: string;
  inputPerMillion: number;
  outputPerMillion: number;
}

export function modelPricesQueryOptions(connection: UsageConnection, workspaceId: string | null) {
  return queryOptions({
    queryKey: ['usage', 'model-prices', connectionId(connection), workspaceId],
    queryFn: async ({ signal }): Promise<ModelPrice[]> => {
      if (!workspaceId) return [];
      const response = await getFromUsageApi(connection, PATH, undefined, signal, {
        'x-tenant-id': workspaceId,
      });
      return modelPriceListSchema.parse(await response.json());
    },
  });
}

export function useModelPrices(workspaceId: string | null) {
  const { connection } = useUsageConnection();
  return useQuery(modelPricesQueryOptions(connection, workspaceId));
}

/** Creates or removes an entry, then reads the map and the LLM usage again. */
export function useChangeModelPrices() {
  const { connection } = useUsageConnection();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['usage', 'model-prices'] });
  const create = useMutation({
    mutationFn: (input: ModelPriceInput) =>
      sendToUsageApi(
        connection,
        'POST',
        PATH,
        {
          name: input.name,
          match_pattern: input.matchPattern,
          prompt_cost: input.inputPerMillion / 1_000_000,
          completion_cost: input.outputPerMillion / 1_000_000,
        },
        { 'x-tenant-id': input.workspaceId },
      ),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: ({ workspaceId, id }: { workspaceId: string; id: string }) =>
      sendToUsageApi(connection, 'DELETE', `${PATH}/${id}`, undefined, {
        'x-tenant-id': workspaceId,
      }),
    onSuccess: refresh,
  });
  return { create, remove };
}
