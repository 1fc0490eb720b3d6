// The heavier artifacts a backend asks for (issue 10): skeleton, full and hybrid payloads, and the
// mode-selection chain. PLACEHOLDER schemas: the issue-10 work replaces them with the real ones.
import { z } from 'zod';

export const SkeletonResult = z.looseObject({ mode: z.literal('skeleton') });
export type SkeletonResult = z.infer<typeof SkeletonResult>;
export const FullResult = z.looseObject({ mode: z.literal('full') });
export type FullResult = z.infer<typeof FullResult>;
export const HybridResult = z.looseObject({ mode: z.literal('hybrid') });
export type HybridResult = z.infer<typeof HybridResult>;
