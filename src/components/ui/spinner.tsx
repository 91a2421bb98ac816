import './ui.css';
/**
 * A small busy indicator, decorative: the text beside it says what is going on. `onAccent` is
 * for a spinner inside a filled (accent) button.
 */
export function Spinner({ onAccent = false }: { onAccent?: boolean }) {
  return <span className={onAccent ? 'spinner spinner-on-accent' : 'spinner'} aria-hidden="true" />;
}
