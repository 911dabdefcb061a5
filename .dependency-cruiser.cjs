// Import cycles and the layers between folders, for every workspace. Type-only imports count:
// a cycle or a layer crossed through a type is still one. `npx depcruise` (in `npm test`'s lint
// step) checks them.

/** Tests may wire layers together (an app built for a test, another module's routes mounted). */
const TESTS = '(\\.test\\.tsx?|\\.test-support\\.ts|/test-fixtures\\.ts)$|^server/src/test-support/|^web/src/test-setup\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files must not import each other, directly or through others (type-only imports included).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'protocol-stands-alone',
      severity: 'error',
      comment: 'The wire types are shared by the server and the web app and depend on neither.',
      from: { path: '^protocol/' },
      to: { path: '^(server|web|e2e|bench|scripts)/' },
    },
    {
      name: 'storage-below-the-app',
      severity: 'error',
      comment: 'Storage is the bottom layer: it knows no module, plugin, HTTP helper, CLI or app.',
      from: { path: '^server/src/storage/', pathNot: TESTS },
      to: { path: '^server/src/(modules|plugins|http|cli)/|^server/src/(app|main)\\.ts$' },
    },
    {
      name: 'http-helpers-over-storage',
      severity: 'error',
      comment: 'The shared HTTP helpers build only on storage, the protocol and the errors.',
      from: { path: '^server/src/http/', pathNot: TESTS },
      to: { path: '^(server/src/|web/)', pathNot: '^server/src/(http/|storage/|errors\\.ts$)' },
    },
    {
      name: 'modules-below-the-app',
      severity: 'error',
      comment: 'A module is wired in by the composition root; it never imports the app or the CLI.',
      from: { path: '^server/src/modules/', pathNot: TESTS },
      to: { path: '^server/src/(app|main)\\.ts$|^server/src/cli/' },
    },
    {
      name: 'modules-meet-through-services',
      severity: 'error',
      comment:
        "A module uses another one through its service and types, never its routes or its plugin " +
        '(*.routes.ts, *.module.ts), which only the composition root mounts.',
      from: { path: '^server/src/modules/([^/]+)/', pathNot: TESTS },
      to: { path: '^server/src/modules/[^/]+/.+\\.(routes|module)\\.ts$', pathNot: '^server/src/modules/$1/' },
    },
    {
      name: 'server-not-in-web',
      severity: 'error',
      comment: 'The server and the web app share only the protocol.',
      from: { path: '^web/' },
      to: { path: '^server/' },
    },
    {
      name: 'web-not-in-server',
      severity: 'error',
      comment: 'The server and the web app share only the protocol.',
      from: { path: '^server/' },
      to: { path: '^web/' },
    },
    {
      name: 'components-are-presentational',
      severity: 'error',
      comment: 'Components take data and callbacks as props; the routes (screens) call the API.',
      from: { path: '^web/src/components/', pathNot: TESTS },
      to: { path: '^web/src/api/' },
    },
    {
      name: 'api-below-the-screens',
      severity: 'error',
      comment: 'The API client knows nothing of the components and screens that use it.',
      from: { path: '^web/src/api/', pathNot: TESTS },
      to: { path: '^web/src/(components|routes)/' },
    },
    {
      name: 'tools-use-entry-points',
      severity: 'error',
      comment:
        'Browser tests, benchmarks and scripts reach the server and the web app only through their ' +
        'documented entry points: the protocol package, the test OpenID provider the server tests ' +
        'share, and the web build scripts with declared types (web/scripts/*.mjs beside a *.d.mts).',
      from: { path: '^(e2e|bench|scripts)/' },
      to: {
        path: '^(server|web)/',
        pathNot: '^server/src/modules/oidc/oidc\\.test-support\\.ts$|^server/src/modules/oidc/oidc-provider\\.d\\.ts$|^web/scripts/startup-payload\\.mjs$',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|coverage|reports|test-results|playwright-report)/' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.d.ts', '.js', '.mjs', '.cjs', '.d.mts'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
