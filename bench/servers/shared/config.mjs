// The environment variables of the generated service (src/config.ts), with its defaults.

const developmentSecret = "development-only-secret-do-not-use-in-production";

export function loadServerConfig(environment = process.env) {
  const secret = environment.JWT_SECRET ?? "";
  if (environment.NODE_ENV === "production" && Buffer.byteLength(secret) < 32)
    throw new Error("JWT_SECRET must be set to at least 32 bytes in production");
  return {
    host: environment.HOST ?? "127.0.0.1",
    port: Number(environment.PORT ?? 3000),
    jwt: {
      secret: secret === "" ? developmentSecret : secret,
      issuer: environment.JWT_ISSUER ?? "clinic-api",
      audience: environment.JWT_AUDIENCE ?? "clinic-api",
      ttlSeconds: 3600,
    },
    bodyLimitBytes: 100 * 1024,
  };
}
