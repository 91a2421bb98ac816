import { z } from 'zod';

/**
 * The body of `POST /api/v1/model-price-map` and `PUT /api/v1/model-price-map/{id}` (server side,
 * full zod for FastAPI-shaped issues), LangSmith's create schema: US dollars per token.
 */
const price = z.number().nonnegative().max(1);
const costDetails = z.record(z.string().max(100), price);

export const modelPriceBodySchema = z.object({
  name: z.string().min(1).max(200),
  match_pattern: z
    .string()
    .min(1)
    .max(500)
    .refine(
      (pattern) => {
        try {
          new RegExp(pattern);
          return true;
        } catch {
          return false;
        }
      },
      { message: 'Value error, match_pattern is not a valid regular expression' },
    ),
  prompt_cost: price,
  completion_cost: price,
  start_time: z.iso.datetime({ offset: true }).nullish(),
  match_path: z.array(z.string().max(100)).max(10).optional(),
  prompt_cost_details: costDetails.nullish(),
  completion_cost_details: costDetails.nullish(),
  provider: z.string().max(200).nullish(),
});
export type ModelPriceBody = z.infer<typeof modelPriceBodySchema>;
