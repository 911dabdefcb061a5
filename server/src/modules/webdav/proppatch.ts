import { badRequest, forbidden } from '../../errors.js';
import { assertUnlocked, evaluateIf, type DavContext } from './context.js';
import { isLiveProperty } from './properties.js';
import { requestResource } from './propfind.js';
import { readXmlBody } from './request-body.js';
import { sendMultistatus, statusLine } from './responses.js';
import { childElements, DAV, emptyElement, escapeText, parseXml, serializeElement } from './xml.js';

type Operation = { ns: string; name: string; xml?: string };

function parseUpdate(body: string): Operation[] {
  if (body.trim() === '') throw badRequest('PROPPATCH needs a propertyupdate body');
  const root = parseXml(body);
  if (root.ns !== DAV || root.name !== 'propertyupdate') throw badRequest('expected a propertyupdate element');
  const operations: Operation[] = [];
  for (const action of childElements(root)) {
    if (action.ns !== DAV || (action.name !== 'set' && action.name !== 'remove')) continue;
    for (const prop of childElements(action)) {
      if (prop.ns !== DAV || prop.name !== 'prop') continue;
      for (const property of childElements(prop)) {
        operations.push({ ns: property.ns, name: property.name, xml: action.name === 'set' ? serializeElement(property) : undefined });
      }
    }
  }
  if (operations.length === 0) throw badRequest('propertyupdate changes nothing');
  return operations;
}

/**
 * PROPPATCH: dead properties are set and removed in document order, all or none. Live
 * properties are protected: one of them in the request fails it with 403 for that property
 * and 424 for the rest, and nothing is changed. Needs `modify`.
 */
export async function proppatch(ctx: DavContext): Promise<unknown> {
  if (!ctx.user.perm.modify) throw forbidden();
  const resource = await requestResource(ctx);
  const tokens = await evaluateIf(ctx);
  assertUnlocked(ctx, tokens, { keys: [resource.key] });
  const operations = parseUpdate(await readXmlBody(ctx.request, ctx.reply));
  const refused = operations.filter((operation) => isLiveProperty(operation.ns, operation.name));
  const propstat = (names: Operation[], status: number) =>
    `<D:propstat><D:prop>${names.map((operation) => emptyElement(operation.ns, operation.name)).join('')}</D:prop><D:status>${statusLine(status)}</D:status></D:propstat>`;
  let body: string;
  if (refused.length > 0) {
    const others = operations.filter((operation) => !isLiveProperty(operation.ns, operation.name));
    body = propstat(refused, 403) + (others.length > 0 ? propstat(others, 424) : '');
  } else {
    await ctx.properties.apply(
      resource.key,
      operations.map((operation) => ({ namespace: operation.ns, name: operation.name, xml: operation.xml })),
    );
    body = propstat(operations, 200);
  }
  return sendMultistatus(ctx.reply, [`<D:response><D:href>${escapeText(resource.href)}</D:href>${body}</D:response>`]);
}
