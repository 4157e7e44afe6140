/** How the spec JSON Schemas are compiled, at build time (scripts/compile-spec-schemas.mjs) and as a fallback at run time. */
export const ajvOptions = { allErrors: true, strict: true, allowUnionTypes: true, verbose: true } as const;
