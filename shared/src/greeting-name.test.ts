import { describe, expect, it } from 'vitest';
import { greetingName } from './greeting-name';

describe('greetingName', () => {
  it.each([
    ['Lucia', 'Lucia'],
    ['Nicolò', 'Nicolò'],
    ['  Anna  Maria ', 'Anna Maria'],
    ["D'Angelo", "D'Angelo"],
    ['D’Angelo', 'D’Angelo'],
    ['Jean-Luc', 'Jean-Luc'],
    ['Zoë', 'Zoë'],
    ['Łukasz', 'Łukasz'],
    ['Ольга', 'Ольга'],
    ['Maximilianoooo', 'Maximilianoooo'],
    ['Maria Francesca', 'Maria Francesca'],
  ])('greets %j as %j', (nome, expected) => {
    expect(greetingName(nome)).toBe(expected);
  });

  it.each([
    'Vai su bit.ly/3xYzAb',
    'bit.ly/abc',
    'www.truffa.it',
    'Mario2',
    'Chiama 3471234567',
    'Mario!',
    'Mario, vinci',
    'Maria Francescaa',
    'a'.repeat(16),
    '<b>Mario</b>',
    'Mario\nVinci',
    "-Mario",
    "Mario'",
    'Mario--Rossi',
    '',
    '   ',
    'https://x.it',
    'Mario@evil',
    '€€€',
  ])('does not greet %j', (nome) => {
    expect(greetingName(nome)).toBeNull();
  });
});
