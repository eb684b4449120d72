import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The embedded database and the Postgres driver stay plain Node modules:
  // PGlite loads its WASM and data files from its own package folder.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
