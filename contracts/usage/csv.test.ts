import { describe, expect, it } from 'vitest';
import { formatCsvCell, formatCsvRow, neutraliseCsvCell } from './csv';

describe('neutraliseCsvCell', () => {
  it.each([
    ['=SUM(A1:A2)', "'=SUM(A1:A2)"],
    ['+cmd', "'+cmd"],
    ['-2+3', "'-2+3"],
    ['@import', "'@import"],
    ['\tindent', "'\tindent"],
    ['\rreturn', "'\rreturn"],
    ['\nline', "'\nline"],
    [' =1+1', "' =1+1"],
    ['\u3000 -2', "'\u3000 -2"],
    ['＝SUM(A1)', "'＝SUM(A1)"],
    ['＠x', "'＠x"],
    ['a ＝ b', 'a ＝ b'],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j -> %j', (input, expected) => {
    expect(neutraliseCsvCell(input)).toBe(expected);
  });
});

describe('formatCsvRow', () => {
  it.each([
    [['a', 'b'], 'a,b\r\n'],
    [['Acme, Inc.', 3], '"Acme, Inc.",3\r\n'],
    [['say "hi"'], '"say ""hi"""\r\n'],
    [['line\nbreak'], '"line\nbreak"\r\n'],
    [['=1+1', -3], "'=1+1,-3\r\n"],
    [['=HYPERLINK("x","y")'], '"\'=HYPERLINK(""x"",""y"")"\r\n'],
    [[null, undefined, '', 0], ',,,0\r\n'],
    [['Zürich ✓'], 'Zürich ✓\r\n'],
  ])('%j -> %j', (cells, expected) => {
    expect(formatCsvRow(cells)).toBe(expected);
  });
});

describe('formatCsvCell', () => {
  it.each([
    [null, ''],
    [undefined, ''],
    [-3, '-3'],
    [1.5, '1.5'],
    ['-3', "'-3"],
    ['a,b', '"a,b"'],
  ])('%j -> %j', (cell, expected) => {
    expect(formatCsvCell(cell)).toBe(expected);
  });
});
