// Where a page names the brand of its product, in so many words: a byline ("Visit the Tefal Store",
// "Visiter la boutique PetSafe", "by Ankerkraut"), a labelled value ("Brand: Bosch", "Marke: Weleda",
// a spec table's "Brand Name | CIGA Design"). Words that only name the field ("Our brands", "Shop by
// brand") are no brand.
import type { RagNode } from './ragNodes.js';

/** A schema field that asks for the brand. */
export const BRAND_KEY = /^(?:brand|brandname|make|manufacturer|maker|vendor)$/i;

// Words that name the field rather than give its value ("Brands", "Our brands", "Shop by brand").
export const FIELD_WORDS = /^(?:(?:our|all|top|shop|by|the|more|other|see|view)\s+)*(?:brands?|manufacturers?|makers?|marken?|marques?|marcas?)(?:\s+(?:a-z|list|index))?$/i;

// The label of a brand's value, in the languages shops are written in.
const BRAND_LABEL = /^(?:brand(?:\s+name)?|make|manufacturer|marke|hersteller|marque|fabricant|marca|fabricante|produttore|merk|fabrikant|märke|tillverkare|mærke|merke|marka|producent|producător|značka|výrobce|gyártó|márka|marchio|kaubamärk|tootja|merkki|valmistaja|zīmols|бренд|марка|производитель|μάρκα|מותג|العلامة التجارية|品牌|牌子|ブランド|メーカー|브랜드|제조사)$/iu;

// A byline or a labelled phrase: "Visit the Tefal Store", "Visiter la boutique PetSafe",
// "Besuche den WELEDA-Store", "Visita lo Store di Retevis", "Visita la tienda de Roborock",
// "Brand: Bosch", "Marque : PetSafe", "by Ankerkraut".
const BRAND_PHRASE = new RegExp('(?:' + [
  '^visit\\s+the\\s+(.{2,40}?)\\s+store',
  '^visiter\\s+la\\s+boutique\\s+(?:de\\s+)?(.{2,40}?)',
  '^besuchen?(?:\\s+sie)?\\s+den\\s+(.{2,40}?)-?\\s?(?:store|shop)',
  '^visita\\s+lo\\s+store\\s+di\\s+(.{2,40}?)',
  '^visita\\s+la\\s+tienda\\s+de\\s+(.{2,40}?)',
  '^bezoek\\s+de\\s+(.{2,40}?)-?\\s?(?:winkel|store)',
  '(?:^|\\b)(?:brand(?:\\s+name)?|marca|marque|marke|merk|märke|marka)\\s*[:：]\\s*(.{2,40}?)',
].map((p) => `(?:${p})`).join('|') + ')\\s*$', 'iu');

// "by Ankerkraut": a name (capitalised, a few words, no sentence), not "de quoi s'agit-il ?".
const BYLINE = /^(?:[Bb]y|[Vv]on|[Pp]ar|[Dd]e|[Dd]i|[Dd]oor|[Aa]v)\s+(\p{Lu}[^?!.:;]{1,39}?)\s*$/u;

/** The brand a phrase names, or undefined. */
export function brandPhrase(text: string): string | undefined {
  const t = text.replace(/\s+/g, ' ').trim();
  const m = BRAND_PHRASE.exec(t) ?? BYLINE.exec(t);
  const brand = m?.slice(1).find((g) => g !== undefined)?.trim();
  return brand && /\p{L}/u.test(brand) && !FIELD_WORDS.test(brand) && brand.split(/\s+/).length <= 6 ? brand : undefined;
}

/** A labelled value that gives the brand ("Brand: Norton" in a spec table), as the page labels it. */
export function isBrandValue(n: RagNode): boolean {
  if (n.kind !== 'content' || (n.role !== 'value' && n.role !== 'cell') || !n.value) return false;
  // A spec table's cell is named by its row header and column header: "Brand Name Value".
  const label = n.name.replace(/[:：]\s*$/, '').trim();
  return (BRAND_LABEL.test(label) || BRAND_LABEL.test(label.split(/\s+/).slice(0, 2).join(' ')) || BRAND_LABEL.test(label.split(/\s+/)[0]))
    && /\p{L}/u.test(n.value) && !FIELD_WORDS.test(n.value.trim()) && n.value.length <= 60;
}
