import { describe, expect, it } from 'vitest';
import { remoteHtmlToText, sanitizeRemoteHtml } from './remote-html.js';

describe('sanitizeRemoteHtml', () => {
  it("keeps Mastodon's markup: paragraphs, breaks, links, mention and hashtag spans", () => {
    const mastodon =
      '<p><span class="h-card" translate="no"><a href="https://a.example/@bob" class="u-url mention">@<span>bob</span></a></span> hi<br>there <a href="https://a.example/tags/x" class="mention hashtag" rel="tag">#<span>x</span></a></p>';
    expect(sanitizeRemoteHtml(mastodon)).toBe(
      '<p><span class="h-card"><a href="https://a.example/@bob" class="u-url mention" rel="nofollow noopener noreferrer" target="_blank">@<span>bob</span></a></span> hi<br>there <a href="https://a.example/tags/x" class="mention hashtag" rel="nofollow noopener noreferrer" target="_blank">#<span>x</span></a></p>',
    );
  });

  it('drops scripts and styles with their content, event handlers, styles and other attributes', () => {
    expect(sanitizeRemoteHtml('<p onclick="x()" style="color:red">a<script>alert(1)</script><style>p{}</style>b</p>')).toBe('<p>ab</p>');
    expect(sanitizeRemoteHtml('<img src=x onerror=alert(1)><svg><script>1</script></svg>ok')).toBe('ok');
    expect(sanitizeRemoteHtml('<span class="evil mention" data-x="1">@a</span>')).toBe('<span class="mention">@a</span>');
    expect(sanitizeRemoteHtml('<iframe src="https://x"></iframe><div><b>bold</b></div>')).toBe('bold');
  });

  it('keeps links to http and https only, and only their href', () => {
    expect(sanitizeRemoteHtml('<a href="javascript:alert(1)">x</a>')).toBe('x');
    expect(sanitizeRemoteHtml('<a href="data:text/html,1">x</a>')).toBe('x');
    expect(sanitizeRemoteHtml('<a href=" JaVaScRiPt:alert(1)">x</a>')).toBe('x');
    expect(sanitizeRemoteHtml('<a href="/relative">x</a>')).toBe('x');
    expect(sanitizeRemoteHtml('<a href="https://ok.example/?a=1&amp;b=&quot;2" title="t">x</a>')).toBe(
      '<a href="https://ok.example/?a=1&amp;b=%222" rel="nofollow noopener noreferrer" target="_blank">x</a>',
    );
  });

  it('re-escapes text, so broken markup and entities never become tags', () => {
    expect(sanitizeRemoteHtml('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(sanitizeRemoteHtml('a < b && c > d')).toBe('a &lt; b &amp;&amp; c &gt; d');
    expect(sanitizeRemoteHtml('<p title="a>b">x</p>')).toBe('<p>x</p>');
    expect(sanitizeRemoteHtml('<!-- <script>1</script> -->x<!DOCTYPE html>')).toBe('x');
    expect(sanitizeRemoteHtml('<scr<script>ipt>alert(1)</script>')).toBe('ipt&gt;alert(1)');
  });

  it('closes what it opened and ignores stray end tags', () => {
    expect(sanitizeRemoteHtml('<p><a href="https://x.example">x')).toBe(
      '<p><a href="https://x.example/" rel="nofollow noopener noreferrer" target="_blank">x</a></p>',
    );
    expect(sanitizeRemoteHtml('</p></span>x</a>')).toBe('x');
    expect(sanitizeRemoteHtml('<script>never closed')).toBe('');
  });
});

describe('remoteHtmlToText', () => {
  it('turns paragraphs and breaks into newlines and drops tags, hidden spans and scripts', () => {
    expect(remoteHtmlToText('<p>Hello <b>you</b></p><p>line<br>two &amp; more</p><script>x</script>')).toBe(
      'Hello you\n\nline\ntwo & more',
    );
    expect(remoteHtmlToText('<a href="https://a.example/x"><span class="invisible">https://</span><span>a.example/x</span></a>')).toBe(
      'a.example/x',
    );
    expect(remoteHtmlToText('&lt;script&gt;')).toBe('<script>');
  });
});
