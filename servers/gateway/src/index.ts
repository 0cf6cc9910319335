export type { Gateway, GatewayOptions } from './gateway.js';
export { createGateway } from './gateway.js';
export { ResourceAddresses } from './resource-address.js';
