import 'reflect-metadata';

export type { ConfigOverrides } from './config.js';
export { ConfigError, loadConfig } from './config.js';
export { createApp, createContext, type RunningServer, startServer } from './server.js';
