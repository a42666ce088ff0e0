import { Suspense, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

function Greeting({ name }: { name: string }) {
  return <p>hello {name}</p>;
}

const page = (Component: ComponentType<{ name: string }>) =>
  renderToString(
    <Suspense fallback={<p>loading</p>}>
      <Component name="admin" />
    </Suspense>,
  );

const chunk = () => Promise.resolve({ default: Greeting });

describe('preloadable', () => {
  it('suspends on a first render before its chunk is loaded', () => {
    const { Component } = preloadable(chunk);
    expect(page(Component)).toContain('loading');
  });

  it('renders directly, without a fallback, on a first render after it was loaded ahead', async () => {
    // React.lazy alone would suspend here: its own first render starts its load. A fallback shown
    // holds the page back for up to 300 ms in React 19.
    const { Component, load } = preloadable(chunk);
    await load();
    const html = page(Component);
    expect(html).toContain('<p>hello <!-- -->admin</p>');
    expect(html).not.toContain('loading');
  });

  it('passes a failed load on, so that the caller can retry or report it', async () => {
    const { load } = preloadable<{ name: string }>(() => Promise.reject(new Error('offline')));
    await expect(load()).rejects.toThrow('offline');
  });
});
