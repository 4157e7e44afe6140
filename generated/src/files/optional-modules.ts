// Part of the hashapi runtime, copied as is by `hashapi generate`. Do not edit: it rewrites this file.

/*
 * The packages only a project with file fields depends on (busboy, file-type, image-size, and
 * @aws-sdk/client-s3 where the bucket may be used): loaded on first use, by a name the compiler
 * does not resolve, so that every project compiles the same runtime whether it has them or not.
 * Each caller declares the few members it uses.
 */

const loaded = new Map<string, Promise<unknown>>();

/** The module `name`, imported once. */
export function loadModule<Module>(name: string): Promise<Module> {
  let module = loaded.get(name);
  if (module === undefined) {
    const specifier: string = name;
    module = import(specifier) as Promise<unknown>;
    loaded.set(name, module);
  }
  return module as Promise<Module>;
}
