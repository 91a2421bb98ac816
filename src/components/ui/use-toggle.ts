import { useId, useState } from 'react';

/**
 * Open/closed state of a show/hide control: the button's props (`aria-expanded`,
 * `aria-controls`, the click) and the id the panel it shows must carry.
 */
export function useToggle(initiallyOpen = false) {
  const [open, setOpen] = useState(initiallyOpen);
  const panelId = useId();
  return {
    open,
    setOpen,
    panelId,
    buttonProps: {
      'aria-expanded': open,
      'aria-controls': panelId,
      onClick: () => setOpen((isOpen) => !isOpen),
    },
  };
}
