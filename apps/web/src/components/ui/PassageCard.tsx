import { Paper, Title } from '@mantine/core';
import type { CSSProperties, ReactNode } from 'react';
import { useId } from 'react';
import classes from './PassageCard.module.css';

interface PassageCardProps {
  /** The place (a plaza, a gantry): the card's heading and accessible name. */
  title: string;
  /** The state badges, beside the title. */
  badges: ReactNode;
  /** The passage's line under the title: where, when, the plate (PlateText), the value. */
  passage: ReactNode;
  /** Its fields, notes and actions. */
  children: ReactNode;
  /** data-* marks for the tests and the journeys (data-estado...). */
  marks: Record<`data-${string}`, string | number>;
  style?: CSSProperties;
}

/** One passage's card, as /contestacoes and /livre-passagem draw it. */
export function PassageCard({ title, badges, passage, children, marks, style }: PassageCardProps) {
  const titleId = useId();
  return (
    <Paper component="article" withBorder radius="md" p="sm" aria-labelledby={titleId} style={style} {...marks}>
      <div className={classes.card}>
        <div className={classes.header}>
          <Title order={2} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {badges}
        </div>
        <div className={classes.passage}>{passage}</div>
        {children}
      </div>
    </Paper>
  );
}

/** 'Placa ABC1D23' in a passage's line, the plate kept on one line. */
export function PlateText({ label, plate }: { label: string; plate: string }) {
  return (
    <span>
      {label} <span className={classes.plate}>{plate}</span>
    </span>
  );
}
