// Small helpers shared by the engine-*.test.ts files: find a node of a snapshot by the DOM
// element it stands for, and validate payloads against the published schemas.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { SemanticResult, SemanticV3Result, type SemanticNode, type SemanticNodeV3 } from '../../src/model/contracts/schema.js';

export const ID_ATTR = 'data-llm-id';

/**
 * The ID the engine gave the element at `selector`, read through Playwright's own world so that a
 * page which overrides getAttribute in its main world cannot lie to the test either.
 */
export async function llmId(page: Page, selector: string): Promise<string | null> {
  return page.locator(selector).getAttribute(ID_ATTR);
}

export async function v3Node(page: Page, result: SemanticV3Result, selector: string): Promise<SemanticNodeV3 | undefined> {
  const id = await llmId(page, selector);
  return id === null ? undefined : result.interactive_tree.find((n) => n.i === id);
}

export async function semNode(page: Page, result: SemanticResult, selector: string): Promise<SemanticNode | undefined> {
  const id = await llmId(page, selector);
  return id === null ? undefined : result.nodes.find((n) => n.id === id);
}

export function validV3(result: unknown): SemanticV3Result {
  const parsed = SemanticV3Result.safeParse(result);
  assert.ok(parsed.success, `semantic_v3 result does not match its schema: ${parsed.error?.message}`);
  return parsed.data;
}

export function validSemantic(result: unknown): SemanticResult {
  const parsed = SemanticResult.safeParse(result);
  assert.ok(parsed.success, `semantic result does not match its schema: ${parsed.error?.message}`);
  return parsed.data;
}

export function names(result: SemanticV3Result): string[] {
  return result.interactive_tree.map((n) => n.n);
}

/** A repeatable sequence in [0, 1): a failure names the same random cases on every run. */
export function seeded(seed: number): () => number {
  return () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
}
