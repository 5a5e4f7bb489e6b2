import * as RadixToast from '@radix-ui/react-toast';
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { useMessages } from '../i18n/i18n';
import { uiMessages } from './messages';
import styles from './toast.module.css';

interface ToastItem {
  id: number;
  message: string;
  tone: 'success' | 'error';
}

type Notify = (message: string, tone?: ToastItem['tone']) => void;

const ToastContext = createContext<Notify>(() => undefined);

/** Short confirmations ("Saved") and failures of actions that have no form to show them in. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const t = useMessages(uiMessages);
  const [toasts, setToasts] = useState<ToastItem[]>([]);
  const notify = useCallback<Notify>((message, tone = 'success') => {
    setToasts((list) => [...list, { id: Date.now() + Math.random(), message, tone }]);
  }, []);
  const value = useMemo(() => notify, [notify]);
  return (
    <ToastContext.Provider value={value}>
      <RadixToast.Provider swipeDirection="right" duration={5000} label={t('notifications')}>
        {children}
        {toasts.map((toast) => (
          <RadixToast.Root
            key={toast.id}
            className={[styles.toast, toast.tone === 'error' ? styles.error : ''].join(' ')}
            type={toast.tone === 'error' ? 'foreground' : 'background'}
            onOpenChange={(open) => {
              if (!open) setToasts((list) => list.filter((item) => item.id !== toast.id));
            }}
          >
            <RadixToast.Title className={styles.title}>{toast.message}</RadixToast.Title>
            <RadixToast.Close className={styles.close} aria-label={t('close')}>
              ×
            </RadixToast.Close>
          </RadixToast.Root>
        ))}
        <RadixToast.Viewport className={styles.viewport} />
      </RadixToast.Provider>
    </ToastContext.Provider>
  );
}

export function useToast(): Notify {
  return useContext(ToastContext);
}
