/**
 * `fetch` for clients that carry a key (the tracer's langsmith `Client`): a redirect is not
 * followed but fails the request, naming where it pointed. Following it would send the key's
 * headers to whatever host the endpoint names, as `fetch` keeps custom headers across hosts.
 */
export const fetchWithoutRedirects: typeof fetch = async (input, init) => {
  const response = await fetch(input, { ...init, redirect: 'manual' });
  if (response.status < 300 || response.status > 399) return response;
  await response.body?.cancel();
  const url = input instanceof Request ? input.url : String(input);
  const location = response.headers.get('location') ?? 'nowhere';
  throw new Error(
    `${url} answered ${response.status} to ${location}; redirects are not followed (the API key would go with them): set the endpoint to the final URL.`,
  );
};
