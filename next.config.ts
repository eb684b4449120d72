import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The embedded database and the Postgres driver stay plain Node modules:
  // PGlite loads its WASM and data files from its own package folder.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "pglite-prisma-adapter",
    "pg",
    "@prisma/adapter-pg",
    "prom-client",
  ],
  poweredByHeader: false,
  // Static files skip the proxy (proxy.ts sets these, and the CSP, on everything else).
  async headers() {
    return [
      {
        source: "/_next/static/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
        ],
      },
    ];
  },
  typedRoutes: false,
};

export default nextConfig;
