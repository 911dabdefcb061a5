import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for the reCAPTCHA service on 127.0.0.1: it serves a script defining `grecaptcha`
 * (after a delay, so the app has to wait for it) and answers the server's siteverify calls.
 * Its widget is a button; pressing it "solves" the challenge.
 */
export async function startFakeCaptcha(options: { siteKey: string; secret: string; scriptDelayMs?: number }) {
  const verifications: string[] = [];
  const script = `
    window.grecaptcha = {
      render(element, settings) {
        const button = document.createElement('button');
        button.type = 'button';
        button.textContent = 'I am not a robot';
        button.addEventListener('click', () => {
          window.__captchaResponse = 'solved-' + settings.sitekey;
          button.textContent = 'Verified';
        });
        element.appendChild(button);
        return 1;
      },
      getResponse() { return window.__captchaResponse || ''; },
      reset() { window.__captchaResponse = ''; },
    };`;
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method === 'GET' && url.pathname === '/recaptcha/api.js') {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/javascript' });
        response.end(script);
      }, options.scriptDelayMs ?? 600);
      return;
    }
    if (request.method === 'POST' && url.pathname === '/recaptcha/api/siteverify') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        const answer = form.get('response') ?? '';
        verifications.push(answer);
        const success = form.get('secret') === options.secret && answer === `solved-${options.siteKey}`;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ success }));
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    verifications,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
