/**
 * A dependency token that carries the type it resolves to. It is a plain symbol at run time, so any
 * container can use it as an identifier, while the compiler knows what it stands for: a binding helper
 * can then check a factory's parameters against the tokens of its dependencies. The domain declares
 * its ports' tokens without importing a container.
 */
declare const resolvesTo: unique symbol;
export type Token<T> = symbol & { readonly [resolvesTo]?: T };

/** The type a token resolves to. */
export type TokenType<K> = K extends Token<infer T> ? T : never;

/** Tokens are global symbols, so two copies of one package (dist and src in tests) agree on them. */
export function token<T>(name: string): Token<T> {
  return Symbol.for(`plaza.${name}`) as Token<T>;
}
