/**
 * The Redis key namespace of one deployment (its id from the store, migration 0007). Deployments
 * may share a Redis server; user ids and rate-limit keys collide across databases, so every
 * channel and key a deployment uses starts with its own prefix.
 */
export const redisNamespace = (deploymentId: string) => `parley:${deploymentId}:`;
