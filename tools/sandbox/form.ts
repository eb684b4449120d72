export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/**
 * Parses Stripe's form encoding: `metadata[intent_key]=x&expand[]=y&a[b][c]=z`
 * into nested objects and arrays.
 */
export function parseStripeForm(body: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.match(/^[^[\]]+|\[[^[\]]*\]/g)?.map((p) => p.replace(/^\[|\]$/g, "")) ?? [rawKey];
    let node: Record<string, FormValue> | FormValue[] = root;
    parts.forEach((part, index) => {
      const last = index === parts.length - 1;
      const nextIsArray = parts[index + 1] === "";
      if (Array.isArray(node)) {
        if (last) node.push(value);
        else {
          const child: Record<string, FormValue> | FormValue[] = nextIsArray ? [] : {};
          node.push(child);
          node = child;
        }
        return;
      }
      if (last) {
        node[part] = value;
        return;
      }
      const existing: FormValue | undefined = node[part];
      if (existing === undefined || typeof existing === "string") {
        node[part] = nextIsArray ? [] : {};
      }
      node = node[part] as Record<string, FormValue> | FormValue[];
    });
  }
  return root;
}
