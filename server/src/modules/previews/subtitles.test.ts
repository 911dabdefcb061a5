import { describe, expect, it } from 'vitest';
import { assToVtt, decodeSubtitle, srtToVtt, toWebVtt } from './subtitles.js';

describe('srtToVtt', () => {
  it('adds the header, turns decimal commas into dots and <br> into line breaks', () => {
    const srt = '1\r\n00:00:01,500 --> 00:00:03,250\r\nHello<br>world<BR/>again<br />!\r\n\r\n2\r\n0:01:02,5 --> 0:01:04,000\r\nNumbers, commas, 12,5\r\n';
    expect(srtToVtt(decodeSubtitle(Buffer.from(srt)))).toBe(
      'WEBVTT\n\n1\n00:00:01.500 --> 00:00:03.250\nHello\nworld\nagain\n!\n\n2\n00:01:02.500 --> 00:01:04.000\nNumbers, commas, 12,5\n',
    );
  });

  it('drops a byte-order mark and reads legacy Windows-1252 text', () => {
    const latin = Buffer.concat([Buffer.from('1\n00:00:00,000 --> 00:00:01,000\nCaf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    expect(srtToVtt(decodeSubtitle(latin))).toContain('Café');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('1\n00:00:00,000 --> 00:00:01,000\nx\n')]);
    expect(srtToVtt(decodeSubtitle(bom)).startsWith('WEBVTT\n\n1\n')).toBe(true);
  });
});

describe('assToVtt', () => {
  const ass = [
    '[Script Info]',
    'Title: sample',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize',
    'Style: Default,Arial,20',
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    'Dialogue: 0,0:00:05.00,0:00:07.50,Default,,0,0,0,,{\\an8}Second, with a comma\\Nand a break',
    'Comment: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,not shown',
    'Dialogue: 0,0:00:01.10,0:00:02.20,Default,,0,0,0,,{\\i1}First{\\i0} <b> & co',
    'Dialogue: 0,1:02:03.45,1:02:04.00,Default,,0,0,0,,Late',
    'Dialogue: 0,0:00:09.00,0:00:08.00,Default,,0,0,0,,ends before it starts',
  ].join('\r\n');

  it('converts dialogue lines in time order, dropping overrides and escaping markup', () => {
    expect(assToVtt(ass)).toBe(
      'WEBVTT\n\n' +
        '00:00:01.100 --> 00:00:02.200\nFirst &lt;b&gt; &amp; co\n\n' +
        '00:00:05.000 --> 00:00:07.500\nSecond, with a comma\nand a break\n\n' +
        '01:02:03.450 --> 01:02:04.000\nLate\n',
    );
  });

  it('follows the Format line when fields come in another order (SSA)', () => {
    const ssa = ['[Events]', 'Format: Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text', 'Dialogue: Marked=0,0:00:00.50,0:00:01.00,*Default,,0,0,0,,Hi'].join('\n');
    expect(toWebVtt('.ssa', ssa)).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:01.000\nHi\n');
  });
});

describe('toWebVtt', () => {
  it('passes WebVTT through unchanged', () => {
    const vtt = 'WEBVTT\n\n00:00.000 --> 00:01.000\n<i>as is</i>\n';
    expect(toWebVtt('.vtt', vtt)).toBe(vtt);
  });
});
