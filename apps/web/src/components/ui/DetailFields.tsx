import type { ReactNode } from 'react';
import classes from './DetailFields.module.css';

/** A record's fields, one a line on a phone, two columns from ~576 px. */
export function DetailList({ children }: { children: ReactNode }) {
  return <dl className={classes.list}>{children}</dl>;
}

interface DetailFieldProps {
  label: ReactNode;
  children: ReactNode;
  /** Both columns from ~576 px (a route, a trip's two dates). */
  wide?: boolean;
  /** A text (a description, a reason): a line of its own, read as text. */
  text?: boolean;
  /** A field to notice, tinted and bordered; its label carries its icon. */
  tone?: 'warning' | 'danger' | 'success';
}

export function DetailField({ label, children, wide = false, text = false, tone }: DetailFieldProps) {
  const className = [classes.field, wide && classes.wide, text && classes.text, tone && classes.toned].filter(Boolean).join(' ');
  return (
    <div className={className} data-tone={tone} data-warning={tone === 'warning' || undefined}>
      <dt className={classes.label}>{label}</dt>
      <dd className={classes.value}>{children}</dd>
    </div>
  );
}
