import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@kanak/contract';
import { storage } from './storage';

describe('storage', () => {
  it('uses brand-prefixed, separate keys for token and user', () => {
    expect(STORAGE_KEYS.accessToken).toMatch(/^kanak\./);
    expect(STORAGE_KEYS.user).toMatch(/^kanak\./);
    expect(STORAGE_KEYS.stayLoggedIn).toMatch(/^kanak\./);
    expect(STORAGE_KEYS.accessToken).not.toBe(STORAGE_KEYS.user);
  });

  it('keeps a "stay logged in" session in localStorage, with the flag as JSON', () => {
    storage.saveSession({ accessToken: 'abc', user: 'meera', stayLoggedIn: true });

    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('abc');
    expect(localStorage.getItem(STORAGE_KEYS.user)).toBe('meera');
    expect(localStorage.getItem(STORAGE_KEYS.stayLoggedIn)).toBe('true');
    expect(sessionStorage.length).toBe(0);
    expect(storage.getToken()).toBe('abc');
    expect(storage.getUser()).toBe('meera');
    expect(storage.getStayLoggedIn()).toBe(true);
  });

  it('keeps any other session in sessionStorage only', () => {
    storage.saveSession({ accessToken: 'xyz', user: 'ravi', stayLoggedIn: false });

    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBe('xyz');
    expect(sessionStorage.getItem(STORAGE_KEYS.user)).toBe('ravi');
    expect(sessionStorage.getItem(STORAGE_KEYS.stayLoggedIn)).toBe('false');
    expect(localStorage.length).toBe(0);
    expect(storage.getStayLoggedIn()).toBe(false);
  });

  it('a new sign-in replaces the previous one in the other area', () => {
    storage.saveSession({ accessToken: 'old', user: 'ravi', stayLoggedIn: true });
    storage.saveSession({ accessToken: 'new', user: 'meera', stayLoggedIn: false });

    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(storage.getToken()).toBe('new');
    expect(storage.getUser()).toBe('meera');
  });

  it('puts a fresh token where the old one was', () => {
    storage.saveSession({ accessToken: 'old', user: 'meera', stayLoggedIn: true });
    storage.replaceToken('fresh');

    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('fresh');
    expect(sessionStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
  });

  it('clear() removes every Kanak key from both areas and nothing else', () => {
    storage.saveSession({ accessToken: 'a', user: 'u', stayLoggedIn: true });
    sessionStorage.setItem(STORAGE_KEYS.accessToken, 'b');
    localStorage.setItem('other.app', 'keep');

    storage.clear();

    for (const key of Object.values(STORAGE_KEYS)) {
      expect(localStorage.getItem(key)).toBeNull();
      expect(sessionStorage.getItem(key)).toBeNull();
    }
    expect(localStorage.getItem('other.app')).toBe('keep');
    expect(storage.getToken()).toBeNull();
  });
});
