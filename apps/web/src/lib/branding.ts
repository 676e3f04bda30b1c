import { queryOptions, useQuery } from '@tanstack/react-query';
import { API_PATHS, type Branding } from '@kanak/contract';
import { api } from './api';

/** The shop's name, tagline, phones and "powered by": public, fetched once per visit. */
export const brandingQuery = queryOptions({
  queryKey: ['app', 'branding'],
  queryFn: async ({ signal }) => {
    const { data } = await api.get<{ success: boolean; data: Branding }>(API_PATHS.branding, {
      signal,
    });
    return data.data;
  },
  staleTime: Infinity,
});

export const useBranding = () => useQuery(brandingQuery);
