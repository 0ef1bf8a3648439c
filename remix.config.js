/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.*"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  future: {
    v3_fetcherPersist: true,
    // Off: with three dozen routes the whole route manifest is one small, immutably cached file;
    // lazy discovery instead matched every page's routes a second time to inline a part of it
    // (a quarter of a millisecond per page) and asked /__manifest on navigation.
    v3_lazyRouteDiscovery: false,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Single fetch changes how loader data travels; we keep the v2 format until the move to
    // React Router, where it becomes the only one.
    v3_singleFetch: false,
  },
};
