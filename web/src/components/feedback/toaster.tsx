import { useEffect } from 'react';
import { Toaster as SonnerToaster } from 'sonner';
import './toaster.css';

type ToasterProps = {
  theme: 'light' | 'dark' | 'system';
  /** Called once the toaster listens, so toasts sent from then on are shown. */
  onReady: () => void;
};

/** Toasts of spec section 9: bottom centre, at most 10 visible, the newest on top of the stack. */
export default function Toaster({ theme, onReady }: ToasterProps) {
  // Sonner subscribes in its own effect, which runs before this parent effect.
  useEffect(() => {
    onReady();
  }, [onReady]);
  return (
    <SonnerToaster
      position="bottom-center"
      visibleToasts={10}
      closeButton
      richColors
      theme={theme}
      toastOptions={{ className: 'toast' }}
    />
  );
}
