/**
 * @fastify/multipart without its two per-request hooks. The plugin adds an async `onRequest` hook
 * (a 'close' listener on every response) and an async `onResponse` hook, both only to delete the
 * temporary files of `saveRequestFiles()`. Parley never saves request files to disk: it reads
 * fields and streams file parts (`request.parts()`, http/request-params.ts, the upload routes), so
 * there is never anything to delete, and every request — GET /users/me included — paid two
 * promises, a listener and its removal for nothing (issue 21 item 2). Everything else the plugin
 * installs (the multipart content-type parser, the request decorators) is kept as it is.
 */
import type { FastifyInstance } from "fastify";
import { fastifyMultipart, type FastifyMultipartOptions } from "@fastify/multipart";

/** The hooks the plugin adds only for saved request files. */
const SAVED_FILE_HOOKS = new Set(["onRequest", "onResponse"]);

export function registerMultipart(app: FastifyInstance, options: FastifyMultipartOptions): Promise<void> {
  const withoutFileHooks = new Proxy(app, {
    get(target, property) {
      if (property === "addHook") {
        return (name: string, hook: unknown) => {
          if (!SAVED_FILE_HOOKS.has(name)) (target.addHook as (n: string, h: unknown) => unknown).call(target, name, hook);
          return withoutFileHooks;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return new Promise((resolve, reject) => {
    fastifyMultipart(withoutFileHooks, options, (err?: Error) => (err ? reject(err) : resolve()));
  });
}
