import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { Connection } from '@/features/playground/model/connection';
import { compareStrategies } from './compare-strategies';
import { createDeploymentClient } from './create-deployment-client';
import type { DoubleTextRequest } from './run-double-text';

export interface CompareVariables extends Omit<DoubleTextRequest, 'strategy'> {
  connection: Connection;
}

/** All four strategies side by side, as a mutation with a Cancel. */
export function useCompareStrategies() {
  const controllerRef = useRef<AbortController | null>(null);

  const mutation = useMutation({
    mutationFn: ({ connection, ...request }: CompareVariables) => {
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      return compareStrategies({
        client: createDeploymentClient(connection),
        request,
        signal: controller.signal,
      });
    },
  });

  const cancel = useCallback(() => controllerRef.current?.abort(), []);
  useEffect(() => () => controllerRef.current?.abort(), []);

  return { ...mutation, cancel };
}
