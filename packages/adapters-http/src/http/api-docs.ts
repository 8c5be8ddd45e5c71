import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Router from '@koa/router';
import { NotFound, Unavailable } from '@plaza/domain';
import type { Context } from 'koa';
import { buildOpenApiDocument, type RecordedExamples } from './openapi.js';
import type { Script } from './operation.js';

/**
 * The OpenAPI document and its browsable reference (docs/decisions/0007):
 * `<prefix>/openapi.json`, `<prefix>/docs` (our page) and `<prefix>/docs/<asset>` (Swagger UI, served
 * from the `swagger-ui-dist` package: no CDN, no external asset).
 */

export interface ApiDocsOptions {
  /** Public base URL (no trailing slash) for the document's `servers`; relative `/api/v1` when absent. */
  publicUrl?: string;
  prefixes?: string[];
  title?: string;
  version?: string;
}

interface Asset {
  /** A file of swagger-ui-dist, or our own content. */
  file?: string;
  content?: string;
  type: string;
}

/** The only files served under `docs/`: anything else is a 404, so no path can leave this list. */
const ASSETS: Record<string, Asset> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
  'favicon-16x16.png': { file: 'favicon-16x16.png', type: 'image/png' },
  'plaza-docs.js': {
    type: 'text/javascript; charset=utf-8',
    content: `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: new URL('openapi.json', document.baseURI).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    displayOperationId: true,
    filter: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`,
  },
};

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plaza API reference</title>
<link rel="stylesheet" href="./docs/swagger-ui.css">
<link rel="icon" type="image/png" href="./docs/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="./docs/favicon-16x16.png" sizes="16x16">
</head>
<body>
<noscript>The reference needs JavaScript; the raw description is <a href="./openapi.json">openapi.json</a>.</noscript>
<div id="swagger-ui"></div>
<script src="./docs/swagger-ui-bundle.js"></script>
<script src="./docs/plaza-docs.js"></script>
</body>
</html>
`;

/** Same-origin scripts and styles only; Swagger UI sets inline styles and `data:` images. */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src *; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

interface Loaded {
  body: Buffer;
  etag: string;
}

function etagOf(body: Buffer | string): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}

/**
 * The examples the test suite recorded (`npm run openapi:examples`, docs/decisions/0171), beside the
 * sources in the package as the admin templates are; a copy without them serves the document without.
 */
export const RECORDED_EXAMPLES_FILE = fileURLToPath(new URL('../../src/http/openapi-examples.json', import.meta.url));

function recordedExamples(): RecordedExamples | undefined {
  try {
    return JSON.parse(readFileSync(RECORDED_EXAMPLES_FILE, 'utf8')) as RecordedExamples;
  } catch {
    return undefined;
  }
}

function swaggerUiDir(): string {
  return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
}

/** Answers 304 when the client's copy is current; the body is set either way for HEAD and GET. */
function send(ctx: Context, loaded: Loaded, type: string, cacheControl: string): void {
  ctx.status = 200;
  ctx.type = type;
  ctx.set('Cache-Control', cacheControl);
  ctx.etag = loaded.etag;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = loaded.body;
}

/** Registers `GET <prefix>/openapi.json`, `<prefix>/docs` and `<prefix>/docs/<asset>` for every prefix. */
export function registerApiDocs(router: Router, scripts: () => Script[], options: ApiDocsOptions = {}): void {
  const prefixes = options.prefixes ?? ['/api/v1', '/v1'];
  // Built on first use (the registry is complete by then), once: not per request.
  let doc: Loaded | undefined;
  const document = (): Loaded => {
    if (!doc) {
      const body = Buffer.from(
        JSON.stringify(
          buildOpenApiDocument(
            scripts(),
            {
              title: options.title ?? 'Plaza',
              version: options.version ?? 'v1',
              serverUrl: options.publicUrl ?? '',
            },
            recordedExamples(),
          ),
        ),
      );
      doc = { body, etag: etagOf(body) };
    }
    return doc;
  };
  const page: Loaded = { body: Buffer.from(PAGE), etag: etagOf(PAGE) };
  const assets = new Map<string, Promise<Loaded>>();
  const asset = (name: string, a: Asset): Promise<Loaded> => {
    let loaded = assets.get(name);
    if (!loaded) {
      loaded = (async () => {
        const body = a.content !== undefined ? Buffer.from(a.content) : await readFile(join(swaggerUiDir(), a.file!));
        return { body, etag: etagOf(body) };
      })();
      loaded.catch(() => assets.delete(name));
      assets.set(name, loaded);
    }
    return loaded;
  };

  for (const prefix of prefixes) {
    router.get(`${prefix}/openapi.json`, (ctx) => {
      send(ctx, document(), 'application/json; charset=utf-8', 'no-cache');
    });
    router.get(`${prefix}/docs`, (ctx) => {
      // The page's asset URLs are relative to `<prefix>/docs`; with a trailing slash they would miss.
      if (ctx.path.endsWith('/')) {
        ctx.status = 301;
        ctx.redirect('../docs');
        return;
      }
      send(ctx, page, 'text/html; charset=utf-8', 'no-cache');
      ctx.set('Content-Security-Policy', PAGE_CSP);
      ctx.set('Referrer-Policy', 'no-referrer');
    });
    router.get(`${prefix}/docs/:file`, async (ctx) => {
      const name = ctx.params.file;
      const a = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (!a) throw new NotFound('Unknown documentation asset', 'unknown_endpoint');
      let loaded: Loaded;
      try {
        loaded = await asset(name, a);
      } catch {
        throw new Unavailable('The API reference viewer is not installed (swagger-ui-dist)', 'docs_unavailable');
      }
      send(ctx, loaded, a.type, a.content !== undefined ? 'no-cache' : 'public, max-age=86400');
    });
  }
}
