// BM25 over the lexical analyser's weighted terms (src/model/tasks/lexical.ts): how well a bag
// of a page's words (an element, a chunk) matches a query, for the relevance of DOM RAG, the
// chooser and extraction.
import { expand, terms } from '../tasks/lexical.js';

/** A bag of weighted terms: a field's weight counts for each occurrence. */
export class Bag {
  readonly tf = new Map<string, number>();
  length = 0;

  add(text: string | undefined, weight: number): this {
    if (!text) return this;
    for (const t of terms(text)) this.addTerm(t, weight);
    return this;
  }

  addTerm(t: string, weight: number): void {
    this.tf.set(t, (this.tf.get(t) ?? 0) + weight);
    this.length += weight;
  }

  has(t: string): boolean {
    return this.tf.has(t);
  }
}

/** A query: its terms with weights (its own words 1, related words lower). */
export interface QueryTerms { terms: Map<string, number> }

export function queryTerms(words: string[], weight = 1, into: Map<string, number> = new Map()): Map<string, number> {
  for (const w of words) {
    for (const t of terms(w)) {
      into.set(t, Math.max(into.get(t) ?? 0, weight));
      for (const [r, rw] of expand(t)) if (!into.has(r)) into.set(r, rw * weight);
    }
  }
  return into;
}

/** Corpus statistics for BM25: document frequencies and the mean length. */
export interface Corpus { docs: number; df: Map<string, number>; avgLength: number }

export function corpusOf(bags: Bag[]): Corpus {
  const df = new Map<string, number>();
  let total = 0;
  for (const b of bags) {
    total += b.length;
    for (const t of b.tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return { docs: bags.length, df, avgLength: bags.length ? total / bags.length : 1 };
}

const K1 = 1.2;
// Less length normalisation than text search's 0.75: a form or a card is long because it is whole.
const B = 0.5;

export function idf(corpus: Corpus | undefined, t: string): number {
  if (!corpus || corpus.docs <= 1) return 1;
  const df = corpus.df.get(t) ?? 0;
  return Math.log(1 + (corpus.docs - df + 0.5) / (df + 0.5));
}

/**
 * BM25 of a bag for a query, normalised to [0, 1]: the share of the query's information (its
 * terms' idf × weight) that the bag matches, each term saturating as BM25 does.
 */
export function bm25(bag: Bag, query: Map<string, number>, corpus?: Corpus): number {
  let got = 0;
  let ideal = 0;
  const norm = corpus ? 1 - B + B * (bag.length / Math.max(1e-9, corpus.avgLength)) : 1;
  for (const [t, w] of query) {
    const i = idf(corpus, t) * w;
    // Related words (weight below 1) help when present and cost nothing when absent. So does a
    // word the whole page never uses ("Delete in Shipping" where no text says "Shipping"): it
    // cannot tell one element from another, and counting it would sink every candidate alike.
    if (w >= 1 && (!corpus || corpus.docs <= 1 || corpus.df.has(t))) ideal += i;
    const tf = bag.tf.get(t);
    if (!tf) continue;
    // BM25's saturation divided by its value for one occurrence in a document of average length,
    // so one plain match of a term counts 1 and repetition cannot make up for a missing term.
    got += i * Math.min(1, ((1 + K1) * tf) / (tf + K1 * norm));
  }
  return ideal > 0 ? Math.min(1, got / ideal) : 0;
}
