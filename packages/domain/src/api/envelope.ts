import { z } from 'zod';

/** The spec's envelope around a success: {success: true, data, error: null}. */
export const successEnvelopeOf = <S extends z.ZodType>(data: S) =>
  z.strictObject({ success: z.literal(true), data, error: z.null() });

/** Every refusal the API sends: the error twice (error, message), a code, and sometimes details. */
export const ZFailureEnvelope = z.strictObject({
  success: z.literal(false),
  data: z.null(),
  error: z.string().min(1),
  message: z.string().min(1),
  code: z.string().min(1),
  details: z.unknown().optional(),
});
export type FailureEnvelope = z.infer<typeof ZFailureEnvelope>;
