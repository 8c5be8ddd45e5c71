import { loopbackProvider, type RecordedRequest } from './loopback-provider.js';

export interface LoopbackTranslate {
  url: string;
  requests: RecordedRequest[];
  /** `ok` translates (`[fr] text`), `error` answers 500, `refuse` answers 400 as LibreTranslate does for an unknown language. */
  mode: 'ok' | 'error' | 'refuse';
  close(): Promise<void>;
}

/**
 * A loopback stand-in for a LibreTranslate server: `POST /translate` with `{q, source, target, format,
 * api_key?}` answers `{translatedText: "[<target>] <q>", detectedLanguage: {language: "en", confidence: 90}}`.
 */
export async function loopbackTranslate(): Promise<LoopbackTranslate> {
  const state: { mode: LoopbackTranslate['mode'] } = { mode: 'ok' };
  const provider = await loopbackProvider((req) => {
    if (req.method !== 'POST' || req.url !== '/translate') return { status: 404, body: { error: 'Not Found' } };
    if (state.mode === 'error') return { status: 500, body: { error: 'internal error' } };
    const body = req.body as { q?: string; target?: string };
    if (state.mode === 'refuse' || body.target === 'xx') return { status: 400, body: { error: `${body.target} is not supported` } };
    return { status: 200, body: { translatedText: `[${body.target}] ${body.q}`, detectedLanguage: { language: 'en', confidence: 90 } } };
  });
  return {
    url: provider.url,
    requests: provider.requests,
    get mode() {
      return state.mode;
    },
    set mode(m) {
      state.mode = m;
    },
    close: provider.close,
  };
}
