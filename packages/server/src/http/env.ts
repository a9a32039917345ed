/** Variables the HTTP middleware sets on every request. */
export interface AppEnv {
  Variables: { requestId: string };
}
