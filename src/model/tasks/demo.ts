/** The demo's task on `assets/demo.html`: four steps on the checkout, each verified, then done. */
export const DEMO_TASK = 'Type "ada@example.com" into Email, type "12 Analytical Way" into Street, select "Standard (3–5 days)" in Shipping, then click Place order';
