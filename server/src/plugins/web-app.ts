import type { RouteTable } from './route-table.js';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ApiTags, FileResponses, StartupElementId, WildcardParams, binaryResponse, responses, type StartupSettings } from '@burrow/protocol';
import type { Config } from '../config.js';
import type { SettingsService } from '../modules/settings/settings.service.js';
import { runnerState, sandboxFor } from '../modules/commands/sandbox.js';
import { sendStatus } from './error-handler.js';

export const VERSION = '0.1.0';

/** Escapes JSON for a `<script type="application/json">` element: nothing can close the tag. */
function escapeJsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function startupSettings(config: Config, settings: SettingsService): StartupSettings {
  const current = settings.get();
  const recaptchaEnabled = current.authMethod === 'json' && Boolean(config.recaptchaKey && config.recaptchaSecret);
  return {
    Name: current.branding.name,
    DisableExternal: current.branding.disableExternal,
    DisableUsedPercentage: current.branding.disableUsedPercentage,
    BaseURL: config.baseURL,
    StaticURL: `${config.baseURL}/static`,
    ReCaptcha: recaptchaEnabled,
    ReCaptchaKey: recaptchaEnabled ? config.recaptchaKey : '',
    ReCaptchaHost: recaptchaEnabled ? config.recaptchaHost : '',
    Signup: current.signup,
    Version: VERSION,
    NoAuth: current.authMethod === 'noauth',
    AuthMethod: current.authMethod,
    LoginPage: current.authMethod === 'json',
    LogoutPage: '/login',
    Theme: current.branding.theme,
    Color: current.branding.color,
    EnableThumbs: config.enableThumbs,
    ResizePreview: config.resizePreview,
    EnableExec: config.enableExec,
    CommandRunner: config.enableExec ? runnerState(sandboxFor(config).state) : 'off',
    TusSettings: current.tus,
    CSS: Boolean(current.branding.files) && fs.existsSync(path.join(current.branding.files, 'custom.css')),
    HideLoginButton: current.hideLoginButton,
    ExternalChatURL: current.branding.disableExternal ? '' : config.externalChatURL,
    // The documentation stays reachable when external links are disabled; the issue page does not.
    HelpURL: config.helpURL,
    IssuesURL: current.branding.disableExternal ? '' : config.issuesURL,
  };
}

/** The Content-Security-Policy of the app's pages. */
export function pageCsp(config: Config): string {
  const recaptcha = config.recaptchaKey && config.recaptchaSecret ? ` ${config.recaptchaHost} https://www.gstatic.com` : '';
  return [
    "default-src 'self'",
    `script-src 'self'${recaptcha}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    `frame-src 'self'${recaptcha}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The PDF viewer's page in the web build, shown inside the preview's sandboxed frame. */
const PDF_VIEWER_PAGE = 'pdf-viewer.html';

/**
 * The PDF viewer page's own policy. The page runs with an opaque origin (`sandbox allow-scripts`
 * here as well as on the frame, so opening it directly is sandboxed too): it reaches nothing of
 * the app, and only the app's own pages may frame it. Scripts and data files come from the hashed
 * assets; the document's parser runs in a worker started from a blob: URL; WebAssembly (image
 * decoders) may be compiled, JavaScript may never be evaluated from strings.
 */
function pdfViewerCsp(): string {
  return [
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data: blob:",
    "connect-src 'self'",
    'worker-src blob:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'self'",
    'sandbox allow-scripts',
  ].join('; ');
}

const FALLBACK_INDEX = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Burrow</title></head>
<body><!--burrow:startup--><p>The web app has not been built. Run <code>npm run build</code>.</p></body></html>`;

/** Serves the built React app: static assets (precompressed variants), the index page and the PDF viewer page. */
export const webAppPlugin: FastifyPluginAsync<{ config: Config; settings: SettingsService; routeTable?: RouteTable }> = async (
  app,
  { config, settings, routeTable },
) => {
  const dist = config.webDist;
  let template: string | undefined;
  // Files are sent through @fastify/send (types, validators, 304, ranges, precompressed
  // siblings); the route below chooses the root per file, so nothing is served on its own.
  await app.register(fastifyStatic, { serve: false, preCompressed: true, cacheControl: false, index: false, dotfiles: 'allow' });
  // The page tells whether commands can run: the sandbox's start-up check must have ended.
  await sandboxFor(config).ready;

  /** Root-relative asset URLs of a built page, moved below the base URL. */
  const withBaseURL = (html: string) => html.replace(/(src|href)="\/static\//g, (_match, attribute: string) => `${attribute}="${config.baseURL}/static/`);

  async function loadTemplate(): Promise<string> {
    if (template !== undefined) return template;
    try {
      template = await fsp.readFile(path.join(dist, 'index.html'), 'utf8');
    } catch {
      return FALLBACK_INDEX;
    }
    return template;
  }

  async function renderIndex(): Promise<string> {
    const html = await loadTemplate();
    const startup = startupSettings(config, settings);
    if (app.oidcStartup) startup.OIDC = app.oidcStartup();
    const title = escapeHtml(startup.Name || 'Burrow');
    const script = `<script type="application/json" id="${StartupElementId}">${escapeJsonForHtml(startup)}</script>`;
    const recaptcha = startup.ReCaptcha
      ? `<script src="${escapeHtml(startup.ReCaptchaHost)}/recaptcha/api.js?render=explicit" async defer></script>`
      : '';
    const customCss = startup.CSS ? `<link rel="stylesheet" href="${escapeHtml(startup.StaticURL)}/custom.css">` : '';
    // Replacer functions, not strings: a replacement string would expand `$'`, `$&` and the
    // like found in the branding name into pieces of the template.
    return withBaseURL(html)
      .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
      .replace('<!--burrow:startup-->', () => script + recaptcha + customCss);
  }

  async function sendPdfViewer(reply: FastifyReply) {
    let html: string;
    try {
      html = await fsp.readFile(path.join(dist, PDF_VIEWER_PAGE), 'utf8');
    } catch {
      return sendStatus(reply, 404);
    }
    return reply
      .code(200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', pdfViewerCsp())
      .header('x-frame-options', 'SAMEORIGIN')
      .header('x-content-type-options', 'nosniff')
      .send(withBaseURL(html));
  }

  async function sendIndex(reply: FastifyReply) {
    return reply
      .code(200)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache, no-store, must-revalidate')
      .header('x-xss-protection', '1; mode=block')
      .send(await renderIndex());
  }

  const staticSchema = {
    summary: "The web app's files and the branding folder's images and custom.css",
    tags: [ApiTags.webApp],
    security: [] as never[],
    params: WildcardParams,
    response: responses({ ...FileResponses, 200: binaryResponse('The file', ['*/*']) }),
  };
  app.get('/static/*', { schema: staticSchema }, async (request: FastifyRequest, reply: FastifyReply) => {
    // The router has already percent-decoded the wildcard once; decoding again would turn a
    // literal `%41` in a name into `A` and let `%252e` become `.`.
    const decoded = (request.params as { '*': string })['*'];
    if (!decoded || decoded.endsWith('/')) return sendStatus(reply, 404);
    const unsafe = (segment: string) => segment === '..' || segment === '.' || segment === '' || segment.includes('\\');
    if (decoded.includes('\0') || decoded.split('/').some(unsafe)) return sendStatus(reply, 404);
    if (decoded === PDF_VIEWER_PAGE) return sendPdfViewer(reply);
    const brandingFiles = settings.get().branding.files;
    const candidates: [root: string, file: string][] = [];
    if (brandingFiles && (decoded.startsWith('img/') || decoded === 'custom.css')) candidates.push([brandingFiles, decoded]);
    candidates.push([dist, decoded]);
    for (const [root, file] of candidates) {
      // Checked here so that a missing file answers 404 instead of falling through to the page.
      const stat = await fsp.stat(path.join(root, file)).catch(() => undefined);
      if (!stat?.isFile()) continue;
      const immutable = decoded.startsWith('assets/');
      reply
        .header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .header('vary', 'Accept-Encoding');
      // The PDF viewer's frame has an opaque origin, so its module scripts, stylesheets and data
      // files are cross-origin requests (`Origin: null`). Hashed assets are public and fetched
      // without credentials: anyone may read them.
      if (immutable) reply.header('access-control-allow-origin', '*');
      // A `.br` or `.gz` sibling is sent when the client takes that coding (q=0 refuses it);
      // validators, 304 and ranges come with it.
      return reply.sendFile(file, root);
    }
    return sendStatus(reply, 404);
  });

  app.setNotFoundHandler(async (request, reply) => {
    // An API path that exists for other methods: 405 with the methods it does answer.
    if (routeTable && request.url.startsWith('/api/')) {
      const allowed = routeTable.allowedMethods(request.url);
      if (allowed.length > 0) return sendStatus(reply.header('allow', allowed.join(', ')), 405);
    }
    if (request.method === 'GET' || request.method === 'HEAD') return sendIndex(reply);
    return sendStatus(reply, 404);
  });
};
