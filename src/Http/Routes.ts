import * as HttpApi from "effect/http-api/HttpApi"
import type * as HttpApiGroup from "effect/http-api/HttpApiGroup"

export interface Route {
  readonly method: string
  /** As documented: /api/public/bookings/{booking_id}. */
  readonly template: string
  readonly pattern: RegExp
}

/** A route the server answers beside the Api, as its owner declares it: method and router path. */
export type RouteBeside = readonly [method: string, path: string]

/**
 * Every route the server answers: the Api's, read off the Api itself so no list is kept by hand,
 * and those served `beside` it, each declared by the feature that serves it.
 */
export const routesOf = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>,
  beside: ReadonlyArray<RouteBeside>
): ReadonlyArray<Route> => {
  const routes: Array<Route> = []
  const add = (method: string, path: string) =>
    routes.push({
      method,
      template: path.replace(/:([^/]+)/g, "{$1}"),
      pattern: new RegExp(`^${path.replace(/:[^/]+/g, "[^/]+")}$`)
    })
  HttpApi.reflect(api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => add(endpoint.method, endpoint.path) })
  for (const [method, path] of beside) add(method, path)
  return routes
}

export const pathOf = (url: string) => url.split("?")[0] ?? "/"
