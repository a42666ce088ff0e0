/**
 * A catalog's texts widened to `string`: the type of the English catalog that must have exactly the
 * keys of the Chinese one it is declared from.
 */
export type Widen<T> = { readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };
