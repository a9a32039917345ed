import { describe, expect, it } from 'vitest';
import { type AuthenticationConnection, chooseByWhr, passwordConnectionOf } from './authentication-connections.js';
import { InvalidRequest } from './oauth-errors.js';

const connection = (name: string, pluginType: string, extra: Partial<AuthenticationConnection> = {}) => ({
  id: `00000000-0000-4000-8000-${String(name.length).padStart(12, '0')}`,
  name,
  pluginType,
  entityId: null,
  configuration: {},
  ...extra,
});
const list = [
  connection('UsernamePassword', 'UsernamePassword'),
  connection('Google', 'GenericOidcProvider', {
    entityId: 'google-client',
    id: '6f1c2d3e-4b5a-4c6d-8e7f-90a1b2c3d4e5',
  }),
  connection('Staff', 'UsernamePassword'),
];

describe('chooseByWhr', () => {
  it('chooses by uuid:, urn: and name:', () => {
    expect(chooseByWhr(list, 'uuid:6F1C2D3E-4B5A-4C6D-8E7F-90A1B2C3D4E5').name).toBe('Google');
    expect(chooseByWhr(list, 'urn:google-client').name).toBe('Google');
    expect(chooseByWhr(list, 'name:staff').name).toBe('Staff');
  });

  it('refuses another form or a connection the client does not use', () => {
    expect(() => chooseByWhr(list, 'Google')).toThrow(InvalidRequest);
    expect(() => chooseByWhr(list, 'name:Other')).toThrow('no authentication connection of this client');
  });
});

describe('passwordConnectionOf', () => {
  it('takes the username-and-password connection with the higher index', () => {
    expect(passwordConnectionOf(list)?.name).toBe('Staff');
    expect(passwordConnectionOf(list.slice(1, 2))).toBeUndefined();
  });
});
