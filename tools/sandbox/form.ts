import qs from "qs";

export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/**
 * Parses Stripe's form encoding (`metadata[intent_key]=x&expand[]=y&a[b][c]=z`) into
 * nested objects and arrays, with qs — the parser Stripe's own encoding follows — which
 * refuses keys like `__proto__` that would reach Object.prototype.
 */
export function parseStripeForm(body: string): Record<string, FormValue> {
  return qs.parse(body, {
    allowPrototypes: false,
    depth: 5,
    arrayLimit: 100,
    parameterLimit: 1000,
  }) as Record<string, FormValue>;
}
