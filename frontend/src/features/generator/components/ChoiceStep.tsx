import type { ReactNode } from 'react';
import { OptionCards, type OptionCardsProps } from './OptionCards';
import { StepHeading } from './StepLayout';

/** Props of {@link ChoiceStep}: the step's heading, its cards, and what follows them. */
export interface ChoiceStepProps<Id extends string> extends OptionCardsProps<Id> {
  /** The heading's id, which the step's section is labelled by. */
  id: string;
  title: string;
  /** The sentence under the title. */
  intro: ReactNode;
  /** What follows the cards: the summary, notices and the step's footer. */
  children: ReactNode;
  /** A line between the heading and the cards (a team's fixed choice: 'Set by your team'). */
  note?: ReactNode;
}

/** A wizard step that is one choice among cards (step 2 the style, step 3 the background). */
export function ChoiceStep<Id extends string>({
  id,
  title,
  intro,
  children,
  note,
  ...cards
}: ChoiceStepProps<Id>) {
  return (
    <section aria-labelledby={id}>
      <StepHeading id={id} title={title}>
        {intro}
      </StepHeading>
      {note}
      <OptionCards {...cards} />
      {children}
    </section>
  );
}
