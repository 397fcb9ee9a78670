/**
 * The HTTP method a page set, as an attribute or a property: GET when it set none, which a framework may render as
 * `method=""` or leave unset (`null`, `undefined`), as a removed attribute gives. Anything else is returned as it is,
 * for the element's checks to explain.
 */
export function methodOrDefault(method: string | null | undefined): string {
  return method == null || (typeof method === 'string' && method.trim() === '') ? 'GET' : method;
}
