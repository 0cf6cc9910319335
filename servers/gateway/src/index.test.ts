import { describe, expect, it } from 'vitest';
import * as gateway from './index.js';

describe('public surface', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(gateway).sort()).toEqual(['ResourceAddresses', 'createGateway']);
  });
});
