import { describeValue } from '../core/errors.js';

/**
 * Why `value`, set as an element's `property`, is not a `typeName` it can use, or `undefined` when it is one (or
 * none). It must have `methods`, and `use(value)` must work: a framework's reactive proxy (Vue's ref() or
 * reactive()) has the methods, but they run on the proxy, which lacks the object's #private fields.
 */
export function unusableObjectProblem<T>(value: unknown, property: string, typeName: string, methods: ReadonlyArray<keyof T & string>, use: (value: T) => unknown): string | undefined {
  if (value == null) return undefined;
  if (!methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function')) {
    return `The ${property} property must be a ${typeName} (got ${describeValue(value)}).`;
  }
  try {
    use(value as T);
    return undefined;
  } catch (error) {
    return `The ${property} property cannot be used (${String(error)}): a framework's reactive proxy of a ${typeName} (Vue's ref() or reactive()) hides its private fields. Pass the ${typeName} itself: markRaw(${property}).`;
  }
}
