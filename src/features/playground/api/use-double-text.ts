import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Connection } from '@/features/playground/model/connection';
import type { TimelineStep } from '@/features/playground/model/flow-types';
import type { StreamedMessage } from '@/features/playground/model/streamed-messages';
import { createDeploymentClient } from './create-deployment-client';
import { runDoubleText, type DoubleTextRequest } from './run-double-text';

export interface DoubleTextVariables extends DoubleTextRequest {
  connection: Connection;
}

/** The single-strategy flow as a mutation, with its live timeline and messages and a Cancel. */
export function useDoubleText() {
  const controllerRef = useRef<AbortController | null>(null);
  const [liveSteps, setLiveSteps] = useState<TimelineStep[]>([]);
  const [liveMessages, setLiveMessages] = useState<StreamedMessage[]>([]);

  const mutation = useMutation({
    mutationFn: ({ connection, ...request }: DoubleTextVariables) => {
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      setLiveSteps([]);
      setLiveMessages([]);
      return runDoubleText({
        ...request,
        client: createDeploymentClient(connection),
        signal: controller.signal,
        onStep: (step) => setLiveSteps((steps) => [...steps, step]),
        onMessage: (message) => setLiveMessages((messages) => [...messages, message]),
      });
    },
  });

  const cancel = useCallback(() => controllerRef.current?.abort(), []);
  // Leaving the page stops the flow and the runs it started.
  useEffect(() => () => controllerRef.current?.abort(), []);

  return { ...mutation, liveSteps, liveMessages, cancel };
}
