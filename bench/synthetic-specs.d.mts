/** Writes N synthetic resource specs with relations, from a fixed seed: the same N gives the same files. */
export function writeSyntheticSpecs(dir: string, count: number, seed?: number): void;
